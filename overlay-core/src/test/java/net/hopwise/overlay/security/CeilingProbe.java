package net.hopwise.overlay.security;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Not a test: the crypto ceiling of {@link SealedLinkBenchmark}, the highest share of plaintext's
 * goodput that any implementation paying the cipher's measured seal and open could reach. Plaintext
 * delivers a message every {@code wall} ns and spends {@code cpu} ns of CPU on it: every thread's of
 * the process (event loops, kernel time of their socket calls, JIT and GC) but the application's
 * sending thread, of which only the time inside accepted sends counts, since the rest of its time is
 * waiting for room, which any implementation could turn into useful work (counting less only raises
 * the ceiling). Sealed, each message costs {@code seal + open} more. Spread perfectly over the
 * machine's cores, with nothing else added, a sealed message still needs
 * {@code (cpu + seal + open) / cores} ns of wall time, and never less than plaintext's: that bound is
 * the ceiling.
 */
final class CeilingProbe {
    private static final int ROUNDS = 3;
    private static final int PER_ROUND = 20_000;

    private static boolean warm;

    private CeilingProbe() {}

    record Ceiling(CipherSuite suite, double sealNs, double openNs, double plainWallNs, double plainCpuNs, int cores) {
        /** The share of plaintext's goodput reachable with the crypto spread perfectly over the cores. */
        double twoCores() {
            return plainWallNs / Math.max(plainWallNs, (plainCpuNs + sealNs + openNs) / cores);
        }

        String describe(String row) {
            return String.format(Locale.ROOT, "%s: plaintext %.2f us a message (%.2f us of work on %d cores), seal %.0f ns"
                    + " + open %.0f ns in a tight loop: at most %.0f%% of plaintext", row, plainWallNs / 1e3,
                    plainCpuNs / 1e3, cores, sealNs, openNs, 100 * twoCores());
        }
    }

    /** The ceiling of a row: {@code suite}'s seal and open of {@code bytes}, measured now, in a tight loop. */
    static Ceiling ceiling(CipherSuite suite, int bytes, double plainWallNs, double plainCpuNs) {
        if (!warm) {
            for (CipherSuite s : CipherSuite.values()) {
                AeadProviderBenchmark.aeadSealOpen(s, bytes, 1, 100_000); // compiled before the first figure
            }
            warm = true;
        }
        long[] so = AeadProviderBenchmark.aeadSealOpen(suite, bytes, ROUNDS, PER_ROUND);
        return new Ceiling(suite, so[0], so[1], plainWallNs, plainCpuNs, Runtime.getRuntime().availableProcessors());
    }

    /** CPU time so far of every live thread, by id. */
    static java.util.Map<Long, Long> threadCpu() {
        var bean = ManagementFactory.getThreadMXBean();
        java.util.Map<Long, Long> out = new java.util.HashMap<>();
        for (long id : bean.getAllThreadIds()) {
            long t = bean.getThreadCpuTime(id);
            if (t >= 0) {
                out.put(id, t);
            }
        }
        return out;
    }

    /**
     * The three threads that spent the most CPU per message between two {@link #threadCpu} snapshots,
     * named: where the pipeline's time goes, thread by thread (a thread busy nearly all the wall time
     * per message is the bottleneck).
     */
    static String busiestThreads(java.util.Map<Long, Long> before, java.util.Map<Long, Long> after, double messages) {
        var bean = ManagementFactory.getThreadMXBean();
        return after.entrySet().stream().map(e -> java.util.Map.entry(e.getKey(),
                e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .sorted((x, y) -> Long.compare(y.getValue(), x.getValue())).limit(3).map(e -> {
                    var info = bean.getThreadInfo(e.getKey());
                    return String.format(Locale.ROOT, "%s %.2f us", info == null ? "?" : info.getThreadName(),
                            e.getValue() / 1e3 / Math.max(1, messages));
                }).reduce((x, y) -> x + ", " + y).orElse("");
    }

    /** CPU time of the process so far, user and kernel, in every thread but the calling one. */
    static long cpuNanosButThisThread() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() - ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /**
     * OpenSSL's own figure for {@code suite} with {@code bytes} a message, in the TLS-like sequence
     * ({@code -aead}: a fresh nonce, 13 bytes authenticated and a tag per message, as a datagram is
     * sealed), encrypting and decrypting: the lines it printed, and the cost a message. A message
     * saying why when {@code openssl} is not on the PATH.
     */
    static String openssl(CipherSuite suite, int bytes) {
        String name = suite == CipherSuite.AES_GCM ? "aes-256-gcm" : "chacha20-poly1305";
        StringBuilder out = new StringBuilder();
        for (boolean decrypt : new boolean[] {false, true}) {
            List<String> command = new ArrayList<>(List.of("openssl", "speed", "-aead", "-evp", name, "-bytes",
                    Integer.toString(bytes), "-seconds", "1"));
            if (decrypt) {
                command.add(1 + 1, "-decrypt");
            }
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    p.destroy();
                    return "openssl: " + String.join(" ", command) + " failed: " + text.strip();
                }
                String result = text.lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith(name)).reduce((a, b) -> b)
                        .orElse("");
                String[] fields = result.trim().split("\\s+");
                String rate = fields.length == 0 ? "" : fields[fields.length - 1];
                double ns = Double.NaN;
                if (rate.endsWith("k")) {
                    ns = bytes * 1e9 / (Double.parseDouble(rate.substring(0, rate.length() - 1)) * 1000);
                }
                out.append(String.format(Locale.ROOT, "openssl (%s) %s: \"%s\" = %.0f ns a %d-byte message%n",
                        text.lines().filter(l -> l.startsWith("version") || l.startsWith("OpenSSL")).findFirst()
                                .orElse(opensslVersion()), String.join(" ", command), result.trim(), ns, bytes));
            } catch (IOException e) {
                return "openssl is not on the PATH here (" + e.getMessage() + "): no native figure";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            } catch (RuntimeException e) {
                return "openssl printed nothing readable: " + e;
            }
        }
        return out.toString().stripTrailing();
    }

    private static String opensslVersion() {
        try {
            Process p = new ProcessBuilder("openssl", "version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            return v;
        } catch (IOException e) {
            return "openssl";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "openssl";
        }
    }
}
