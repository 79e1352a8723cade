package net.hopwise.overlay.daemon;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.KeyFileException;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.RevocationList;
import net.hopwise.overlay.security.TrustedKeys;

/**
 * {@code keytool revoke}: writes a revocation list signed by the authority, for the daemons'
 * {@code --revocations FILE}.
 *
 * <pre>
 *   keytool revoke --authority FILE --out FILE [--serial N[,N...]] [--certificate FILE] [--key KEY|FILE]
 *                  [--version N] [--fresh]
 * </pre>
 *
 * <p>Every option but {@code --authority}, {@code --out} and {@code --version} may be repeated. A list
 * already at {@code --out} is extended, not replaced: a node that restarts knows only the newest list,
 * so each must carry every revocation still wanted ({@code --fresh} starts an empty one, which withdraws
 * a revocation where nodes start from it: a running node that applied it keeps it, since applied lists
 * add up, until it restarts). The version defaults to the current time in seconds, and is always above the
 * extended list's, since nodes apply only a newer list. The file is replaced by a rename, so that a
 * daemon checking it never reads half a list.
 */
public final class RevokeCommand {
    private RevokeCommand() {}

    /** Runs the command with the arguments after {@code revoke}; the exit code: 0 written, 1 failed, 2 misuse. */
    public static int run(String[] args, PrintStream out, PrintStream err, long nowEpochSeconds) {
        Path authorityFile = null;
        Path outFile = null;
        Long version = null;
        boolean fresh = false;
        Set<Long> serials = new TreeSet<>();
        List<byte[]> keys = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--fresh")) {
                    fresh = true;
                    continue;
                }
                if (i + 1 >= args.length || !option.startsWith("--")) {
                    return usage(err, option.startsWith("--") ? option + " needs a value" : "unexpected '" + option + "'");
                }
                String value = args[++i];
                switch (option) {
                    case "--authority" -> authorityFile = Path.of(value);
                    case "--out" -> outFile = Path.of(value);
                    case "--version" -> version = number(option, value);
                    case "--serial" -> {
                        for (String s : value.split(",")) {
                            serials.add(number(option, s.trim()));
                        }
                    }
                    case "--certificate" -> serials.add(certificate(Path.of(value)).serial());
                    case "--key" -> keys.add(identityKey(value));
                    default -> {
                        return usage(err, "unknown option " + option);
                    }
                }
            }
            if (authorityFile == null || outFile == null) {
                return usage(err, "revoke needs --authority and --out");
            }
            byte[] authority = KeyFiles.readAuthorityKey(authorityFile);
            byte[] authorityPublic = Crypto.ed25519Public(authority);
            for (byte[] k : keys) {
                if (Arrays.equals(k, authorityPublic)) {
                    throw new IllegalArgumentException("--key is the authority's own key: revoking it revokes nothing;"
                            + " remove --authority from the nodes instead");
                }
            }
            long floor = 0;
            if (!fresh && Files.exists(outFile)) {
                Path existing = outFile;
                RevocationList old = RevocationList.decode(Files.readAllBytes(existing)).orElseThrow(() ->
                        new IllegalArgumentException(existing + " exists and is not a revocation list: not replaced"));
                if (!Arrays.equals(old.authorityKey(), authorityPublic) || !old.signatureValid()) {
                    throw new IllegalArgumentException(outFile + " is a list of another authority, or altered: not"
                            + " replaced (--fresh to start a new one)");
                }
                serials.addAll(old.serials());
                for (byte[] k : old.keys()) {
                    if (keys.stream().noneMatch(x -> Arrays.equals(x, k))) {
                        keys.add(k);
                    }
                }
                floor = old.version() + 1;
                if (version != null && version < floor) {
                    throw new IllegalArgumentException("--version " + version + " is not above version " + old.version()
                            + " of " + outFile + ": nodes would ignore it");
                }
            }
            long v = version != null ? version : Math.max(nowEpochSeconds, floor);
            RevocationList list = RevocationList.sign(authority, v, serials, dedupe(keys));
            write(outFile, list.encode());
            out.println("wrote revocation list " + outFile + ": version " + v + ", " + list.serials().size()
                    + " certificate serials, " + list.keys().size() + " keys, " + list.encode().length + " bytes");
            out.println("authority   " + Crypto.fingerprint(authorityPublic));
            out.println("serials     " + (list.serials().isEmpty() ? "none" : list.serials()));
            for (byte[] k : list.keys()) {
                out.println("key         " + TrustedKeys.format(k) + " (" + Crypto.fingerprint(k) + ")");
            }
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    private static List<byte[]> dedupe(List<byte[]> keys) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] k : keys) {
            if (out.stream().noneMatch(x -> Arrays.equals(x, k))) {
                out.add(k);
            }
        }
        return out;
    }

    private static void write(Path file, byte[] bytes) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static long number(String option, String text) {
        try {
            long n = Long.parseLong(text);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + text + "' is not a number of 0 or more", e);
        }
    }

    private static NodeCertificate certificate(Path file) throws IOException {
        return NodeCertificate.decode(Files.readAllBytes(file)).orElseThrow(() ->
                new IllegalArgumentException(file + " is not a hopwise node certificate"));
    }

    /** An identity key as ed25519:BASE64, a node's certificate or a node key file. */
    private static byte[] identityKey(String keyOrFile) throws IOException {
        if (keyOrFile.startsWith("ed25519:")) {
            return TrustedKeys.parseKey(keyOrFile);
        }
        Path file = Path.of(keyOrFile);
        Optional<NodeCertificate> c = NodeCertificate.decode(Files.readAllBytes(file));
        if (c.isPresent()) {
            return c.get().identityKey();
        }
        try {
            return KeyFiles.readNodeKeys(file).identityPublic();
        } catch (KeyFileException e) {
            throw new IllegalArgumentException("--key " + keyOrFile + ": not ed25519:BASE64, a certificate or a node key"
                    + " file (" + e.getMessage() + ")", e);
        }
    }

    private static int usage(PrintStream err, String why) {
        err.println("error: " + why);
        err.println("usage: keytool revoke --authority FILE --out FILE [--serial N[,N...]] [--certificate FILE]"
                + " [--key ed25519:BASE64|CERTFILE|KEYFILE] [--version N] [--fresh]");
        return 2;
    }
}
