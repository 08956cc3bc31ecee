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

/**
 * Where the bytes of thread files live. The runtime keeps each file's record (path, kind, size, MIME type, metadata,
 * provenance) in the database and hands the bytes to a `FileStorage`: the database itself (the default) or a folder on
 * disk (`FILE_STORAGE=disk`, `FILE_STORAGE_DIR`), which keeps large attachments out of the database. Paths are the
 * thread's normalised absolute paths (`/attachments/photo.png`).
 */
export interface FileStorage {
  /** `database` or `disk`. */
  readonly kind: string;
  /** Store (or replace) the bytes of a file. */
  write(threadId: string, path: string, data: Uint8Array): Promise<void>;
  /** The bytes of a file, or null when this storage holds none for it. */
  read(threadId: string, path: string): Promise<Uint8Array | null>;
  /** The bytes in chunks of at most `chunkSize` bytes, read as they are consumed; null when absent. */
  readStream(threadId: string, path: string, chunkSize: number): Promise<AsyncIterable<Uint8Array> | null>;
  /** Forget a file's bytes (nothing happens when there are none). */
  delete(threadId: string, path: string): Promise<void>;
}
