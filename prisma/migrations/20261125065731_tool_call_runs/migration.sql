-- CreateTable
CREATE TABLE "ToolCallRun" (
    "messageId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 1,

    PRIMARY KEY ("messageId", "toolCallId"),
    CONSTRAINT "ToolCallRun_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
