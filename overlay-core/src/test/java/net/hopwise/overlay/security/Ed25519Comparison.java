package net.hopwise.overlay.security;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Not a test: the cost of one Ed25519 verification of a link-state version (about 150 bytes signed),
 * with the JDK of the running JVM, with the verifier in use ({@link Crypto#verify}, Bouncy Castle's) and,
 * given {@code --bc <bcprov jar>}, with another Bouncy Castle release loaded from its jar: the figure
 * that decides what link-state verification costs a node. Prints the median of {@code --rounds} rounds of
 * {@code --count} verifications each, after one unmeasured round.
 */
public final class Ed25519Comparison {
    private Ed25519Comparison() {}

    interface Verify {
        boolean verify(byte[] key, byte[] message, byte[] signature) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int count = 2000;
        int rounds = 5;
        Path bc = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--count" -> count = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--bc" -> bc = Path.of(args[++i]);
                case "--help" -> {
                    System.out.println("Ed25519Comparison [--count 2000] [--rounds 5] [--bc bcprov-jdk18on.jar]");
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int n = count;
        byte[][] keys = new byte[n][];
        byte[][] messages = new byte[n][];
        byte[][] signatures = new byte[n][];
        for (int i = 0; i < n; i++) {
            NodeKeys k = NodeKeys.generate();
            keys[i] = k.identityPublic();
            messages[i] = Crypto.randomBytes(150);
            signatures[i] = k.sign(messages[i]);
        }
        System.out.printf(Locale.ROOT, "%s %s, %d verifications a round, median of %d rounds%n",
                System.getProperty("java.vm.name"), System.getProperty("java.version"), n, rounds);
        report("JDK (SunEC)", Crypto::verifyWithJdk, keys, messages, signatures, rounds);
        report("Crypto.verify, in use (Bouncy Castle)", Crypto::verify, keys, messages, signatures, rounds);
        if (bc != null) {
            try (URLClassLoader loader = new URLClassLoader(new URL[] {bc.toUri().toURL()}, null)) {
                Class<?> ed = loader.loadClass("org.bouncycastle.math.ec.rfc8032.Ed25519");
                Method verify = ed.getMethod("verify", byte[].class, int.class, byte[].class, int.class, byte[].class,
                        int.class, int.class);
                report("Bouncy Castle " + bc.getFileName(), (k, m, s) -> (Boolean) verify.invoke(null, s, 0, k, 0, m, 0,
                        m.length), keys, messages, signatures, rounds);
            }
        }
    }

    private static void report(String what, Verify v, byte[][] keys, byte[][] messages, byte[][] signatures,
            int rounds) throws Exception {
        List<Double> micros = new ArrayList<>();
        for (int r = 0; r <= rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < keys.length; i++) {
                if (!v.verify(keys[i], messages[i], signatures[i])) {
                    throw new IllegalStateException(what + " refused a valid signature");
                }
            }
            double us = (System.nanoTime() - t0) / 1e3 / keys.length;
            if (r > 0) {
                micros.add(us);
            }
        }
        byte[] bad = signatures[0].clone();
        bad[5] ^= 1;
        if (v.verify(keys[0], messages[0], bad)) {
            throw new IllegalStateException(what + " accepted a changed signature");
        }
        List<Double> sorted = micros.stream().sorted().toList();
        System.out.printf(Locale.ROOT, "%s: %.0f µs a verification (rounds: %s)%n", what, sorted.get(sorted.size() / 2),
                micros.stream().map(x -> String.format(Locale.ROOT, "%.0f", x)).toList());
    }
}
