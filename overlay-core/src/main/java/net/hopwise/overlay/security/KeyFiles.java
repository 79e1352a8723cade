package net.hopwise.overlay.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Private key files: written readable by their owner only (created so, never widened afterwards),
 * and refused when read if the group or others may read or write them, as ssh refuses such keys, so
 * that a key copied carelessly is noticed before it is used. A text format an operator can inspect:
 *
 * <pre>
 *   # hopwise node key: private, keep it mode 600
 *   kind: node            (or: authority)
 *   identity: BASE64      (Ed25519 private key, 32 bytes)
 *   link: BASE64          (X25519 private key, 32 bytes; node keys only)
 * </pre>
 *
 * On a file system without POSIX permissions (Windows) the check cannot be made and is skipped.
 */
public final class KeyFiles {
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private KeyFiles() {}

    public static void writeNodeKeys(Path file, NodeKeys keys) throws IOException {
        write(file, "# hopwise node key: private, keep it mode 600\nkind: node\nidentity: "
                + b64(keys.identityPrivate()) + "\nlink: " + b64(keys.linkPrivate()) + "\n");
    }

    /** Writes an authority's private key (an Ed25519 seed). */
    public static void writeAuthorityKey(Path file, byte[] authorityPrivate) throws IOException {
        write(file, "# hopwise authority key: private, keep it mode 600 and offline\nkind: authority\nidentity: "
                + b64(authorityPrivate) + "\n");
    }

    public static NodeKeys readNodeKeys(Path file) throws KeyFileException {
        Map<String, String> fields = read(file, "node");
        return new NodeKeys(key(file, fields, "identity"), key(file, fields, "link"));
    }

    /** Reads an authority's private key (an Ed25519 seed). */
    public static byte[] readAuthorityKey(Path file) throws KeyFileException {
        return key(file, read(file, "authority"), "identity");
    }

    /**
     * Throws unless only the owner may read or write {@code file}.
     *
     * @throws KeyFileException naming the file, its mode and the command that fixes it
     */
    public static void checkPrivate(Path file) throws KeyFileException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        Set<PosixFilePermission> permissions;
        try {
            permissions = view.readAttributes().permissions();
        } catch (NoSuchFileException e) {
            throw new KeyFileException("key file " + file + " does not exist");
        } catch (IOException e) {
            throw new KeyFileException("cannot read the permissions of key file " + file + ": " + e.getMessage(), e);
        }
        Set<PosixFilePermission> extra = EnumSet.copyOf(permissions);
        extra.removeAll(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE));
        if (!extra.isEmpty()) {
            throw new KeyFileException("refusing private key file " + file + ": its mode "
                    + PosixFilePermissions.toString(permissions) + " lets group or others read or write it;"
                    + " run: chmod 600 " + file);
        }
    }

    private static void write(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(file.toString(), null, "a key file is never overwritten");
        }
        boolean posix = Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
        // Created owner-only from the first byte: a file created with the default umask and narrowed
        // afterwards would be readable by others for a moment.
        Path temp = posix
                ? Files.createTempFile(dir, ".hopwise-key", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                : Files.createTempFile(dir, ".hopwise-key", ".tmp");
        try {
            Files.writeString(temp, text, StandardCharsets.US_ASCII);
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static Map<String, String> read(Path file, String kind) throws KeyFileException {
        checkPrivate(file);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new KeyFileException("cannot read key file " + file + ": " + e, e);
        }
        Map<String, String> fields = new HashMap<>();
        for (String line : lines) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int colon = l.indexOf(':');
            if (colon < 0) {
                throw new KeyFileException("key file " + file + ": a line is not 'field: value'");
            }
            fields.put(l.substring(0, colon).strip(), l.substring(colon + 1).strip());
        }
        if (!kind.equals(fields.get("kind"))) {
            throw new KeyFileException("key file " + file + " holds a " + fields.getOrDefault("kind", "unknown")
                    + " key, not a " + kind + " key");
        }
        return fields;
    }

    private static byte[] key(Path file, Map<String, String> fields, String field) throws KeyFileException {
        String value = fields.get(field);
        if (value == null) {
            throw new KeyFileException("key file " + file + " has no '" + field + "' key");
        }
        try {
            byte[] key = Base64.getDecoder().decode(value);
            if (key.length == Crypto.KEY_BYTES) {
                return key;
            }
        } catch (IllegalArgumentException e) {
            // reported below with the file's name
        }
        throw new KeyFileException("key file " + file + ": '" + field + "' is not a base64 32-byte key");
    }

    private static String b64(byte[] key) {
        return Base64.getEncoder().encodeToString(key);
    }

    static String readKind(Path file) throws KeyFileException {
        checkPrivate(file);
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                String l = line.strip();
                if (l.startsWith("kind:")) {
                    return l.substring(5).strip();
                }
            }
        } catch (IOException e) {
            throw new KeyFileException("cannot read key file " + file + ": " + e, e);
        }
        throw new KeyFileException("key file " + file + " names no kind");
    }
}
