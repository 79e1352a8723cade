package net.hopwise.overlay.security;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Keys and certificates from the command line; NodeDaemon and overlay-admin call {@link #run}.
 *
 * <pre>
 *   genkey node|authority FILE             a new private key file (mode 600), never overwriting
 *   pubkey FILE [NAME]                      its public identity key, as a trusted-keys line with NAME
 *   cert sign --authority FILE --name NAME --key KEY|FILE [--days N] [--serial S] --out FILE
 *   cert show FILE
 *   fingerprint FILE|KEY                    of a key file, a certificate or an ed25519:BASE64 key
 * </pre>
 */
public final class KeyTool {
    /** A year: long enough that renewal is a yearly chore, short enough that a lost key ages out. */
    public static final int DEFAULT_CERTIFICATE_DAYS = 365;

    private KeyTool() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, Instant.now().getEpochSecond()));
    }

    /** Runs one command; returns the process exit code (0 done, 1 failed, 2 misuse). */
    public static int run(String[] args, PrintStream out, PrintStream err, long nowEpochSeconds) {
        try {
            if (args.length >= 3 && args[0].equals("genkey")) {
                return genkey(args[1], Path.of(args[2]), out, err);
            }
            if (args.length >= 2 && args[0].equals("pubkey")) {
                byte[] key = identityKey(args[1]);
                out.println(args.length >= 3 ? TrustedKeys.line(args[2], key) : TrustedKeys.format(key));
                return 0;
            }
            if (args.length >= 2 && args[0].equals("fingerprint")) {
                out.println(fingerprint(args[1]));
                return 0;
            }
            if (args.length >= 3 && args[0].equals("cert") && args[1].equals("show")) {
                Optional<NodeCertificate> c = NodeCertificate.decode(Files.readAllBytes(Path.of(args[2])));
                if (c.isEmpty()) {
                    err.println(args[2] + " is not a hopwise node certificate");
                    return 1;
                }
                show(c.get(), out, nowEpochSeconds);
                return 0;
            }
            if (args.length >= 2 && args[0].equals("cert") && args[1].equals("sign")) {
                return sign(options(args, 2), out, err, nowEpochSeconds);
            }
        } catch (IOException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
        usage(err);
        return 2;
    }

    private static int genkey(String kind, Path file, PrintStream out, PrintStream err) throws IOException {
        byte[] identity;
        if (kind.equals("node")) {
            NodeKeys keys = NodeKeys.generate();
            KeyFiles.writeNodeKeys(file, keys);
            identity = keys.identityPublic();
        } else if (kind.equals("authority")) {
            byte[] authority = Crypto.newEd25519Private();
            KeyFiles.writeAuthorityKey(file, authority);
            identity = Crypto.ed25519Public(authority);
        } else {
            usage(err);
            return 2;
        }
        out.println("wrote " + kind + " key " + file + " (mode 600)");
        out.println("public key  " + TrustedKeys.format(identity));
        out.println("fingerprint " + Crypto.fingerprint(identity));
        return 0;
    }

    private static int sign(Map<String, String> o, PrintStream out, PrintStream err, long now) throws IOException {
        for (String required : new String[] {"authority", "name", "key", "out"}) {
            if (!o.containsKey(required)) {
                err.println("cert sign needs --" + required);
                usage(err);
                return 2;
            }
        }
        int days = Integer.parseInt(o.getOrDefault("days", Integer.toString(DEFAULT_CERTIFICATE_DAYS)));
        if (days <= 0) {
            throw new IllegalArgumentException("--days must be positive");
        }
        // A random serial by default, so that two certificates of one authority never share one and a
        // revocation by serial hits exactly one.
        long serial = o.containsKey("serial") ? Long.parseLong(o.get("serial")) : Crypto.random().nextLong() >>> 1;
        byte[] authority = KeyFiles.readAuthorityKey(Path.of(o.get("authority")));
        NodeCertificate c = NodeCertificate.sign(authority, o.get("name"), identityKey(o.get("key")), now,
                Math.addExact(now, days * 86_400L), serial);
        Path file = Path.of(o.get("out"));
        if (Files.exists(file)) {
            throw new IOException(file + " exists: a certificate is never overwritten");
        }
        Files.write(file, c.encode());
        out.println("wrote certificate " + file);
        show(c, out, now);
        return 0;
    }

    private static void show(NodeCertificate c, PrintStream out, long now) {
        out.println("name        " + c.name());
        out.println("identity    " + TrustedKeys.format(c.identityKey()));
        out.println("fingerprint " + Crypto.fingerprint(c.identityKey()));
        out.println("valid       " + Instant.ofEpochSecond(c.notBefore()) + " .. " + Instant.ofEpochSecond(c.notAfter())
                + (c.validAt(now) ? " (valid now)" : " (NOT valid now)"));
        out.println("serial      " + c.serial());
        out.println("authority   " + Crypto.fingerprint(c.authorityKey())
                + (c.signatureValid() ? " (signature valid)" : " (SIGNATURE INVALID)"));
    }

    /** An identity public key given as ed25519:BASE64 or as a node or authority key file. */
    private static byte[] identityKey(String keyOrFile) throws IOException {
        if (keyOrFile.startsWith("ed25519:")) {
            return TrustedKeys.parseKey(keyOrFile);
        }
        Path file = Path.of(keyOrFile);
        return switch (KeyFiles.readKind(file)) {
            case "node" -> KeyFiles.readNodeKeys(file).identityPublic();
            case "authority" -> Crypto.ed25519Public(KeyFiles.readAuthorityKey(file));
            default -> throw new KeyFileException(file + " is not a node or authority key file");
        };
    }

    private static String fingerprint(String keyOrFile) throws IOException {
        if (!keyOrFile.startsWith("ed25519:")) {
            byte[] bytes = Files.readAllBytes(Path.of(keyOrFile));
            Optional<NodeCertificate> c = NodeCertificate.decode(bytes);
            if (c.isPresent()) {
                return Crypto.fingerprint(c.get().identityKey());
            }
        }
        return Crypto.fingerprint(identityKey(keyOrFile));
    }

    private static Map<String, String> options(String[] args, int from) {
        Map<String, String> o = new HashMap<>();
        for (int i = from; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value at '" + args[i] + "'");
            }
            o.put(args[i].substring(2), args[++i]);
        }
        return o;
    }

    private static void usage(PrintStream err) {
        err.println("usage: keytool genkey node|authority FILE");
        err.println("       keytool pubkey KEYFILE [NODE-NAME]");
        err.println("       keytool cert sign --authority FILE --name NODE-NAME --key ed25519:BASE64|KEYFILE"
                + " [--days N] [--serial S] --out FILE");
        err.println("       keytool cert show FILE");
        err.println("       keytool fingerprint KEYFILE|CERTFILE|ed25519:BASE64");
        // Taken by the jars' keytool entry point (daemon.KeyCommands) before this tool.
        err.println("       keytool revoke --authority FILE --out FILE [--serial N[,N...]] [--certificate FILE]"
                + " [--key ed25519:BASE64|CERTFILE|KEYFILE] [--version N] [--fresh]");
    }
}
