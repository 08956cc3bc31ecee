-- JSON columns keep their text as written (json), so objects read back with their keys in the order written, as on
-- SQLite (jsonb reordered them). Rows stored before keep the order jsonb gave them.
-- AlterTable
ALTER TABLE "Experiment" ALTER COLUMN "definition" SET DATA TYPE JSON,
ALTER COLUMN "sources" SET DATA TYPE JSON,
ALTER COLUMN "summary" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "ExperimentResult" ALTER COLUMN "input" SET DATA TYPE JSON,
ALTER COLUMN "scores" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "LlmRequestLog" ALTER COLUMN "request" SET DATA TYPE JSON,
ALTER COLUMN "response" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "Message" ALTER COLUMN "toolCalls" SET DATA TYPE JSON,
ALTER COLUMN "attachments" SET DATA TYPE JSON,
ALTER COLUMN "metadata" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "QueuedMessage" ALTER COLUMN "attachments" SET DATA TYPE JSON,
ALTER COLUMN "metadata" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "ScheduledEffect" ALTER COLUMN "args" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "Thread" ALTER COLUMN "tags" SET DATA TYPE JSON,
ALTER COLUMN "state" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "ThreadEvent" ALTER COLUMN "data" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "ThreadFile" ALTER COLUMN "metadata" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "ToolApproval" ALTER COLUMN "args" SET DATA TYPE JSON,
ALTER COLUMN "decidedArgs" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "VariableRequest" ALTER COLUMN "required" SET DATA TYPE JSON,
ALTER COLUMN "missing" SET DATA TYPE JSON,
ALTER COLUMN "payload" SET DATA TYPE JSON;

-- AlterTable
ALTER TABLE "WorkItem" ALTER COLUMN "payload" SET DATA TYPE JSON;
