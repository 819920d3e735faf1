'use strict';
// The profile token of an agent started without LAB_PROFILE_TOKEN: one made at start and written to
// `<token folder>/<side port>.token`, readable by the user alone, so that a client of the user's on this machine (make
// attach) finds it by the agent's port and nothing else: never by a path the agent answers, which another user's
// process on that port could choose. The folder rule lives here and in jvm-agent's TokenFile.java, which must agree
// (both tests read ../token-folders.json). Node 14 syntax.
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

// 256 bits: as hard to guess as a secret the user would pick.
const TOKEN_BYTES = 32;
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
// Bits that let the group or others in.
const OPEN_TO_OTHERS = 0o077;

class TokenFolderError extends Error {}

/** A new random token: 64 hex characters. */
const newProfileToken = () => crypto.randomBytes(TOKEN_BYTES).toString('hex');

/** This process's uid, or null where the platform has none (Windows). */
const ownUid = () => (typeof process.getuid === 'function' ? process.getuid() : null);

/**
 * The token folder for env and uid: LAB_AGENT_TOKEN_DIR, else $XDG_RUNTIME_DIR/lab-agent (the user's own runtime
 * folder, emptied at logout), else $TMPDIR (or /tmp)/lab-agent-<uid>. TMPDIR-or-/tmp, not os.tmpdir(): Java's temp
 * folder ignores TMPDIR on Linux and Node's reads TMP and TEMP too, and both agents must land on the same folder.
 * null where there is no uid to name it by.
 */
function tokenFolder(env, uid) {
  if (env.LAB_AGENT_TOKEN_DIR) return path.resolve(env.LAB_AGENT_TOKEN_DIR);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'lab-agent');
  return uid === null ? null : path.join(env.TMPDIR || '/tmp', `lab-agent-${uid}`);
}

/** The token file of the agent on port in folder. */
const tokenFileOf = (folder, port) => path.join(folder, `${port}.token`);

/** Throws a TokenFolderError unless folder is a real folder (no link) of uid's that no one else may enter. */
function checkTokenFolder(folder, uid) {
  const stat = fs.lstatSync(folder);
  if (!stat.isDirectory()) throw new TokenFolderError(`the token folder ${folder} is not a folder (a link or a file)`);
  if (stat.uid !== uid) throw new TokenFolderError(`the token folder ${folder} belongs to uid ${stat.uid}, not to this process's ${uid}`);
  if ((stat.mode & OPEN_TO_OTHERS) !== 0) throw new TokenFolderError(`the token folder ${folder} is open to other users (mode ${(stat.mode & 0o777).toString(8)}): chmod 700 it`);
}

/** The folder, created 0700 where missing and checked; a TokenFolderError says why it cannot hold a token. */
function openTokenFolder(folder, uid) {
  if (folder === null || uid === null) throw new TokenFolderError('this platform has no user ids to keep a token file private by');
  try {
    fs.mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  } catch (err) {
    throw new TokenFolderError(`cannot make the token folder ${folder} (${err.code || err.message})`);
  }
  checkTokenFolder(folder, uid);
  return folder;
}

/** Writes token as folder's <port>.token, 0600, whole or not at all (written aside, then renamed); its path. */
function writeTokenFile(folder, port, token) {
  const file = tokenFileOf(folder, port);
  const aside = path.join(folder, `.${port}.token.${process.pid}.tmp`);
  fs.rmSync(aside, { force: true });
  fs.writeFileSync(aside, token, { mode: FILE_MODE, flag: 'wx' });
  fs.renameSync(aside, file);
  return file;
}

/** Removes file if it still holds token (best effort: it is gone or someone else's). */
function removeTokenFile(file, token) {
  try {
    if (fs.readFileSync(file, 'utf8') === token) fs.unlinkSync(file);
  } catch (err) {
    // already gone, or the folder with it: nothing to remove
  }
}

/**
 * The token of the agent on port, from folder (checked first, never created), or null when there is no such file.
 * A TokenFolderError when the folder is not one the user alone may write in.
 */
function readTokenFile(folder, port, uid) {
  if (folder === null || uid === null || !fs.existsSync(folder)) return null;
  checkTokenFolder(folder, uid);
  const file = tokenFileOf(folder, port);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || null : null;
}

module.exports = { newProfileToken, ownUid, tokenFolder, tokenFileOf, openTokenFolder, writeTokenFile, removeTokenFile, readTokenFile, TokenFolderError, TOKEN_BYTES };
