/** What the app keeps locally: chat threads and their turns, watched folders, settings. */
export const sql = `
CREATE TABLE chat_threads (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX chat_threads_user ON chat_threads (user_id, updated_at);

CREATE TABLE chat_turns (
  id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL REFERENCES chat_threads(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  text TEXT NOT NULL,
  at TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX chat_turns_thread ON chat_turns (thread_id, at);

CREATE TABLE watched_folders (
  path TEXT PRIMARY KEY,
  scope TEXT NOT NULL DEFAULT 'org',
  user_id TEXT NOT NULL,
  added_at TEXT NOT NULL
);

CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE INDEX items_file_label ON items (label) WHERE storage_kind = 'file';
CREATE INDEX items_file_kind ON items (file_id, storage_kind);
`;
