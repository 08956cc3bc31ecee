-- CreateTable
CREATE TABLE "ToolApproval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decidedArgs" JSONB,
    "note" TEXT,
    "decidedBy" TEXT,
    "expiresAt" DATETIME,
    "decidedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ToolApproval_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ToolApproval_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ToolApproval_threadId_status_idx" ON "ToolApproval"("threadId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "ToolApproval_messageId_toolCallId_key" ON "ToolApproval"("messageId", "toolCallId");
