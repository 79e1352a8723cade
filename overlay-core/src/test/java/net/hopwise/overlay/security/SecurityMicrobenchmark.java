package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;

/**
 * Not a test: a small timing of the handshake and of sealing and opening, for docs/security.md. Run
 * after test-compile, under the build lock, from overlay-core:
 * {@code java -cp target/classes:target/test-classes net.hopwise.overlay.security.SecurityMicrobenchmark}
 */
public final class SecurityMicrobenchmark {
    private SecurityMicrobenchmark() {}

    public static void main(String[] args) {
        int payload = args.length > 0 ? Integer.parseInt(args[0]) : 1200;
        System.out.println("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors()
                + " cpus, payload " + payload + " bytes");
        handshakes(200);
        long[] hs = handshakes(1000);
        System.out.printf("handshake (5 datagrams, both ends' CPU, in process): %.1f us; %.0f per second on one core;"
                + " of it the responder's %.1f us (%.0f a second on one core)%n", hs[0] / 1e3, 1e9 / hs[0], hs[1] / 1e3,
                1e9 / hs[1]);
        responderFlood(2000);
        double[] flood = responderFlood(5000);
        System.out.printf("responder under a flood: %.1f us per INIT without a cookie (%.0f a second on one core, no"
                + " state), %.0f us per INIT with a valid cookie (Diffie-Hellman and a response: %.0f a second on one"
                + " core, before the handshake budget refuses most)%n", flood[0] / 1e3, 1e9 / flood[0], flood[1] / 1e3,
                1e9 / flood[1]);
        long[] ls = linkState(2000);
        System.out.printf("link-state verification: %d us per new version, %d ns per copy seen again; 1000 origins"
                + " refreshing every 60 s cost %.1f%% of a core%n", ls[0] / 1000, ls[1], ls[0] * 1000 / 60e9 * 100);
        for (CipherSuite suite : CipherSuite.values()) {
            sealOpen(suite, payload, 200_000);
            long[] so = sealOpen(suite, payload, 1_000_000);
            System.out.printf("%-11s seal: %d ns/packet (%.0f MB/s), open: %d ns/packet (%.0f MB/s)%n", suite, so[0],
                    payload * 1e3 / so[0], so[1], payload * 1e3 / so[1]);
        }
    }

    /** Nanoseconds per complete handshake: both ends together, and the responder's part of it. */
    static long[] handshakes(int n) {
        NodeKeys ka = NodeKeys.generate();
        NodeKeys kb = NodeKeys.generate();
        Admission admit = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic())));
        InetSocketAddress aa = new InetSocketAddress("127.0.0.1", 1);
        InetSocketAddress ab = new InetSocketAddress("127.0.0.1", 2);
        long total = 0;
        long responder = 0;
        for (int i = 0; i < n; i++) {
            ArrayDeque<Object[]> wire = new ArrayDeque<>();
            LinkSecurity a = new LinkSecurity(SecurityConfig.of("a", ka, null, admit), (to, d) -> wire.add(new Object[] {ab, d}),
                    r -> { }, new LinkSecurity.Listener() { });
            LinkSecurity b = new LinkSecurity(SecurityConfig.of("b", kb, null, admit), (to, d) -> wire.add(new Object[] {aa, d}),
                    r -> { }, new LinkSecurity.Listener() { });
            a.addPeer("b", ab);
            b.addPeer("a", aa);
            ByteBuffer out = ByteBuffer.allocate(2048);
            long t0 = System.nanoTime();
            a.seal("b", ByteBuffer.allocate(0), out, 0);
            while (!wire.isEmpty()) {
                Object[] d = wire.poll();
                LinkSecurity to = d[0] == ab ? b : a;
                InetSocketAddress from = d[0] == ab ? aa : ab;
                out.clear();
                long r0 = System.nanoTime();
                to.receive(from, ByteBuffer.wrap((byte[]) d[1]), out, 0);
                if (to == b) {
                    responder += System.nanoTime() - r0;
                }
            }
            total += System.nanoTime() - t0;
            if (!b.status("a", 0).authenticated()) {
                throw new IllegalStateException("handshake did not complete");
            }
        }
        return new long[] {total / n, responder / n};
    }

    /**
     * A responder's CPU per INIT: without a cookie (spoofed sources: one HMAC and a reply), and with
     * a valid one (the cookie obtained first, untimed; the budget set out of the way so that every
     * INIT costs what an unthrottled one would). Nanoseconds each.
     */
    static double[] responderFlood(int n) {
        NodeKeys kb = NodeKeys.generate();
        Admission admit = new TrustedKeys(Map.of("b", List.of(kb.identityPublic())));
        byte[][] last = new byte[1][];
        LinkSecurity b = new LinkSecurity(SecurityConfig.of("b", kb, null, admit).withHandshakeBudget(1 << 30, 1 << 30)
                .withMaxPendingHandshakes(1 << 20), (to, d) -> last[0] = d, r -> { }, new LinkSecurity.Listener() { });
        java.util.Random random = new java.util.Random(n);
        byte[][] inits = new byte[n][];
        InetSocketAddress[] from = new InetSocketAddress[n];
        for (int i = 0; i < n; i++) {
            byte[] init = new byte[SecureWire.INIT_BYTES];
            random.nextBytes(init);
            init[0] = SecureWire.INIT;
            java.util.Arrays.fill(init, SecureWire.INIT_BYTES - SecureWire.COOKIE_BYTES, SecureWire.INIT_BYTES, (byte) 0);
            inits[i] = init;
            from[i] = new InetSocketAddress("10.0." + (i >> 8 & 255) + "." + (i & 255), 4000 + (i & 1023));
        }
        ByteBuffer out = ByteBuffer.allocate(2048);
        long now = 1_000_000_000L;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            out.clear();
            b.receive(from[i], ByteBuffer.wrap(inits[i]), out, now);
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            out.clear();
            b.receive(from[i], ByteBuffer.wrap(inits[i]), out, now);
            System.arraycopy(last[0], 5, inits[i], SecureWire.INIT_BYTES - SecureWire.COOKIE_BYTES, SecureWire.COOKIE_BYTES);
        }
        long t2 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            out.clear();
            b.receive(from[i], ByteBuffer.wrap(inits[i]), out, now);
            if (last[0][0] != SecureWire.RESPONSE) {
                throw new IllegalStateException("a valid INIT was not answered");
            }
        }
        long t3 = System.nanoTime();
        return new double[] {(t1 - t0) / (double) n, (t3 - t2) / (double) n};
    }

    /** Nanoseconds per verification of a new version, and per copy already verified. */
    static long[] linkState(int n) {
        NodeKeys origin = NodeKeys.generate();
        IdentityDirectory directory = name -> List.of(origin.identityPublic());
        LinkStateSigner signer = new LinkStateSigner("o", origin, directory, n);
        LinkStateSigner verifier = new LinkStateSigner("v", NodeKeys.generate(), directory, n);
        byte[] advert = new byte[200];
        byte[][] sigs = new byte[n][];
        for (int i = 0; i < n; i++) {
            sigs[i] = signer.sign(i, advert);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (!verifier.verify("o", i, advert, sigs[i]).valid()) {
                throw new IllegalStateException("did not verify");
            }
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            verifier.verify("o", i, advert, sigs[i]);
        }
        long t2 = System.nanoTime();
        return new long[] {(t1 - t0) / n, (t2 - t1) / n};
    }

    static long[] sealOpen(CipherSuite suite, int payload, int n) {
        byte[][] keys = {Crypto.randomBytes(32), Crypto.randomBytes(32)};
        Session tx = new Session(suite, "b", 1, 2, true, keys, 4096, 0, new byte[32]);
        Session rx = new Session(suite, "a", 2, 1, false, keys, 4096, 0, new byte[32]);
        ByteBuffer plain = ByteBuffer.allocate(payload);
        ByteBuffer sealed = ByteBuffer.allocate(payload + SecureWire.DATA_OVERHEAD);
        ByteBuffer opened = ByteBuffer.allocate(payload + SecureWire.DATA_OVERHEAD);
        long sealNanos = 0;
        long openNanos = 0;
        for (int i = 0; i < n; i++) {
            plain.clear();
            sealed.clear();
            long t0 = System.nanoTime();
            tx.seal(plain, sealed);
            long t1 = System.nanoTime();
            sealed.flip();
            opened.clear();
            if (rx.open(sealed, opened) != null) {
                throw new IllegalStateException("did not open");
            }
            long t2 = System.nanoTime();
            sealNanos += t1 - t0;
            openNanos += t2 - t1;
        }
        return new long[] {sealNanos / n, openNanos / n};
    }
}
