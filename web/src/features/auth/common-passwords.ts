// The server's own list (assets/common-passwords.txt, the 10,000 most common passwords, which
// src/accounts/model.rs compiles in), read at build time: one list, two readers. Imported
// lazily (`loadCommonPasswords`), so only the pages that set a password fetch it.
import list from '../../../../assets/common-passwords.txt?raw';

/** Lower-cased, as the server compares. */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(list.split('\n').map((line) => line.trim()).filter(Boolean));
