-- CreateTable
CREATE TABLE "ToolCallRun" (
    "messageId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "ToolCallRun_pkey" PRIMARY KEY ("messageId","toolCallId")
);

-- AddForeignKey
ALTER TABLE "ToolCallRun" ADD CONSTRAINT "ToolCallRun_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;
