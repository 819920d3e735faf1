package lab.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * The profile token of an agent started without LAB_PROFILE_TOKEN: one made at start and written to
 * `<token folder>/<side port>.token`, readable by the user alone, so that a client of the user's on this machine (make
 * attach) finds it by the agent's port and nothing else: never by a path the agent answers, which another user's
 * process on that port could choose. The folder rule is the Node agent's (agents/node-agent/token-file.js): both
 * agents' tests read agents/token-folders.json.
 */
final class TokenFile {
    static final String TOKEN_DIR = "LAB_AGENT_TOKEN_DIR";
    // 256 bits, 64 hex characters: the Node agent's and the lab starters' tokens.
    private static final int TOKEN_BYTES = 32;
    private static final Set<PosixFilePermission> FOLDER_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");

    /** Why a folder cannot hold a token: its message is the agent's one stderr line about it. */
    static final class FolderRefused extends Exception {
        FolderRefused(String message) {
            super(message);
        }
    }

    private TokenFile() {
    }

    static String newToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** This process's uid, or null where there is none (Windows, or a runtime image without jdk.security.auth). */
    static Long ownUid() {
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid();
        } catch (LinkageError | RuntimeException e) {
            return null;
        }
    }

    /**
     * The token folder for env and uid: LAB_AGENT_TOKEN_DIR, else $XDG_RUNTIME_DIR/lab-agent, else
     * $TMPDIR (or /tmp)/lab-agent-<uid>. TMPDIR-or-/tmp, not java.io.tmpdir, which ignores TMPDIR on Linux where Node's
     * reads it: both agents must land on the same folder. null where there is no uid to name it by.
     */
    static Path folder(Map<String, String> env, Long uid) {
        String own = env.get(TOKEN_DIR);
        if (own != null && !own.isEmpty()) return Path.of(own).toAbsolutePath().normalize();
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isEmpty()) return Path.of(runtime, "lab-agent");
        if (uid == null) return null;
        String temp = env.get("TMPDIR");
        return Path.of(temp == null || temp.isEmpty() ? "/tmp" : temp, "lab-agent-" + uid);
    }

    static Path fileOf(Path folder, int port) {
        return folder.resolve(port + ".token");
    }

    /** The folder, made 0700 where missing, then checked: a real folder of uid's that no one else may enter. */
    static Path open(Path folder, Long uid) throws FolderRefused {
        if (folder == null || uid == null) throw new FolderRefused("this platform has no user ids to keep a token file private by");
        try {
            Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(FOLDER_MODE));
            PosixFileAttributes attributes = Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isDirectory()) throw new FolderRefused("the token folder " + folder + " is not a folder (a link or a file)");
            Object owner = Files.getAttribute(folder, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (((Number) owner).longValue() != uid) {
                throw new FolderRefused("the token folder " + folder + " belongs to uid " + owner + ", not to this process's " + uid);
            }
            if (!FOLDER_MODE.containsAll(attributes.permissions())) {
                throw new FolderRefused("the token folder " + folder + " is open to other users (mode " + octal(attributes.permissions()) + "): chmod 700 it");
            }
            return folder;
        } catch (IOException | UnsupportedOperationException e) {
            throw new FolderRefused("cannot make or read the token folder " + folder + " (" + e + ")");
        }
    }

    /** Permissions as chmod writes them (777): the enum lists owner read first, others execute last. */
    private static String octal(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission p : permissions) mode |= 1 << (8 - p.ordinal());
        return Integer.toOctalString(mode);
    }

    /**
     * Writes token as folder's <port>.token, 0600, whole or not at all (written aside, then moved), and removes it when
     * the JVM shuts down if it still holds this token. A file a killed JVM left on the port is replaced.
     */
    static void write(Path folder, int port, String token) throws IOException {
        Path file = fileOf(folder, port);
        Path aside = Files.createTempFile(folder, "." + port + ".token.", ".tmp", PosixFilePermissions.asFileAttribute(FILE_MODE));
        Files.writeString(aside, token);
        Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Thread remove = new Thread(() -> {
            try {
                if (new String(Files.readAllBytes(file), StandardCharsets.UTF_8).equals(token)) Files.delete(file);
            } catch (IOException | RuntimeException e) {
                // already gone, or no longer ours: nothing to remove
            }
        }, "lab-agent-token-file");
        Runtime.getRuntime().addShutdownHook(remove);
    }
}
