/** A file or directory in a thread's filesystem. Paths are absolute and thread-local (`/attachments/a.png`). */
export interface FileRecord {
  /** Normalised absolute path inside the thread's filesystem. */
  path: string;
  /** Last path segment. */
  name: string;
  type: "file" | "directory";
  /** MIME type (null for directories). */
  mimeType: string | null;
  /** Size in bytes (0 for directories). */
  size: number;
  /** Creation time, microseconds since the epoch. */
  createdAt: number;
  /** Last modification time, microseconds since the epoch. */
  updatedAt: number;
  /** Image width in pixels, when known. */
  width?: number;
  /** Image height in pixels, when known. */
  height?: number;
  /** Custom metadata given at write time. */
  metadata?: Record<string, unknown>;
}

/** Options of `state.writeFile`. */
export interface WriteFileOptions {
  /** Custom metadata stored with the file. */
  metadata?: Record<string, unknown>;
  /** Image dimensions, when the caller knows them. */
  width?: number;
  height?: number;
  /** Fail instead of replacing an existing file. @default false */
  noOverwrite?: boolean;
}

/** Options of `state.readFileStream`. */
export interface ReadFileStreamOptions {
  /** Bytes per chunk. */
  chunkSize?: number;
  /** Aborts the stream. */
  signal?: AbortSignal;
}

/** One chunk of a streamed file. */
export interface FileChunk {
  data: Uint8Array;
  /** Zero-based chunk index. */
  index: number;
  totalChunks: number;
  isLast: boolean;
}

/** Result of `state.readdirFile`. */
export interface ReaddirResult {
  /** Entries directly inside the directory, sorted by name. */
  entries: FileRecord[];
}

/** Result of `state.getFileStats`. */
export interface FileStats {
  fileCount: number;
  directoryCount: number;
  /** Sum of file sizes in bytes. */
  totalSize: number;
}

/** One file's matches in `state.grepFiles`. */
export interface GrepResult {
  path: string;
  matches: Array<{ line: number; content: string }>;
}

/** Result of `state.findFiles` (glob-style match on paths). */
export interface FindResult {
  files: FileRecord[];
  total: number;
}
