package net.hopwise.overlay.security;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import net.hopwise.overlay.NodeId;

/**
 * One node's link security: its name and keys, what it admits, and the protocol's timings. The
 * defaults are listed in docs/security.md, "Settings".
 *
 * @param certificate this node's certificate, sent in handshakes; null under trusted-keys admission
 * @param wallClockSeconds wall-clock time for certificate validity (the only use of real time: the
 *     protocol itself runs on the nanoseconds it is handed)
 */
public record SecurityConfig(String name, NodeKeys keys, NodeCertificate certificate, Admission admission,
        LongSupplier wallClockSeconds, Duration handshakeRetry, Duration handshakeTimeout, Duration rekeyAfter,
        Duration rejectAfter, long rekeyAfterPackets, long rejectAfterPackets, int replayWindow,
        int maxPendingHandshakes, Duration cookieLifetime, CipherSuite cipherSuite, int handshakesPerAddress,
        int handshakesPerSecond) {
    /** About one hello interval: a lost handshake datagram costs what a lost hello does. */
    public static final Duration DEFAULT_HANDSHAKE_RETRY = Duration.ofSeconds(1);
    /** An attempt not done in this time starts over with fresh keys; a responder forgets it then. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);
    /** As WireGuard: a session key protects two minutes of traffic at most, bounding what one leak reveals. */
    public static final Duration DEFAULT_REKEY_AFTER = Duration.ofSeconds(120);
    /** Room for a rekey to complete (retries included) before the old session stops being used. */
    public static final Duration DEFAULT_REJECT_AFTER = Duration.ofSeconds(180);
    /** Far within the 64-bit nonce space; at a million packets a second age rekeys first anyway. */
    public static final long DEFAULT_REKEY_AFTER_PACKETS = 1L << 32;
    public static final long DEFAULT_REJECT_AFTER_PACKETS = 1L << 33;
    /** 4096 packets of reordering: about 45 ms of a gigabit link in full datagrams. */
    public static final int DEFAULT_REPLAY_WINDOW = 4096;
    /** Handshakes a responder keeps state for at once (each about 1 KiB), after their cookie. */
    public static final int DEFAULT_MAX_PENDING_HANDSHAKES = 1024;
    /** How long a cookie secret is used; a cookie is honoured for up to twice this. */
    public static final Duration DEFAULT_COOKIE_LIFETIME = Duration.ofSeconds(120);
    /**
     * AES-256-GCM where the JVM runs it on the processor's AES instructions (about seven times cheaper
     * per datagram than Java 17's ChaCha20-Poly1305, which is plain Java), ChaCha20-Poly1305 elsewhere:
     * see {@link CipherSuite#preferred()}. An overlay whose nodes differ in this sets one suite.
     */
    public static final CipherSuite DEFAULT_CIPHER_SUITE = CipherSuite.preferred();
    /** Handshakes a second one source address may start: a neighbour needs one per rekey, a few after a restart. */
    public static final int DEFAULT_HANDSHAKES_PER_ADDRESS = 10;
    /**
     * Handshakes a second in all: 11-16% of a core at a responder's 0.5-0.8 ms each (docs/security.md,
     * "Cost"), a ninth of the about 1800 a second one core answers on sockets, so a flood cannot take
     * the node's loop.
     */
    public static final int DEFAULT_HANDSHAKES_PER_SECOND = 200;

    public SecurityConfig {
        NodeId.requireValidName(name);
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(wallClockSeconds, "wallClockSeconds");
        Objects.requireNonNull(cipherSuite, "cipherSuite");
        if (certificate != null && (!certificate.name().equals(name)
                || !java.util.Arrays.equals(certificate.identityKey(), keys.identityPublic()))) {
            throw new IllegalArgumentException("the certificate is for " + certificate.name() + " with key "
                    + Crypto.fingerprint(certificate.identityKey()) + ", not for " + name + " with key "
                    + keys.fingerprint());
        }
        if (rejectAfter.compareTo(rekeyAfter) <= 0 || rejectAfterPackets <= rekeyAfterPackets) {
            throw new IllegalArgumentException("rejectAfter must exceed rekeyAfter, so a rekey has time to complete");
        }
        if (maxPendingHandshakes < 1 || rekeyAfterPackets < 1 || handshakesPerAddress < 1 || handshakesPerSecond < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
        new ReplayWindow(replayWindow); // checks its range
    }

    /** The defaults, for a node named {@code name} with these keys, certificate (or null) and admission. */
    public static SecurityConfig of(String name, NodeKeys keys, NodeCertificate certificate, Admission admission) {
        return new SecurityConfig(name, keys, certificate, admission,
                () -> System.currentTimeMillis() / 1000, DEFAULT_HANDSHAKE_RETRY, DEFAULT_HANDSHAKE_TIMEOUT,
                DEFAULT_REKEY_AFTER, DEFAULT_REJECT_AFTER, DEFAULT_REKEY_AFTER_PACKETS,
                DEFAULT_REJECT_AFTER_PACKETS, DEFAULT_REPLAY_WINDOW, DEFAULT_MAX_PENDING_HANDSHAKES,
                DEFAULT_COOKIE_LIFETIME, DEFAULT_CIPHER_SUITE, DEFAULT_HANDSHAKES_PER_ADDRESS,
                DEFAULT_HANDSHAKES_PER_SECOND);
    }

    public SecurityConfig withWallClock(LongSupplier seconds) {
        return new SecurityConfig(name, keys, certificate, admission, seconds, handshakeRetry, handshakeTimeout,
                rekeyAfter, rejectAfter, rekeyAfterPackets, rejectAfterPackets, replayWindow, maxPendingHandshakes,
                cookieLifetime, cipherSuite, handshakesPerAddress, handshakesPerSecond);
    }

    public SecurityConfig withRekey(Duration after, Duration reject, long afterPackets, long rejectPackets) {
        return new SecurityConfig(name, keys, certificate, admission, wallClockSeconds, handshakeRetry,
                handshakeTimeout, after, reject, afterPackets, rejectPackets, replayWindow, maxPendingHandshakes,
                cookieLifetime, cipherSuite, handshakesPerAddress, handshakesPerSecond);
    }

    public SecurityConfig withMaxPendingHandshakes(int max) {
        return new SecurityConfig(name, keys, certificate, admission, wallClockSeconds, handshakeRetry,
                handshakeTimeout, rekeyAfter, rejectAfter, rekeyAfterPackets, rejectAfterPackets, replayWindow, max,
                cookieLifetime, cipherSuite, handshakesPerAddress, handshakesPerSecond);
    }

    public SecurityConfig withCipherSuite(CipherSuite suite) {
        return new SecurityConfig(name, keys, certificate, admission, wallClockSeconds, handshakeRetry,
                handshakeTimeout, rekeyAfter, rejectAfter, rekeyAfterPackets, rejectAfterPackets, replayWindow,
                maxPendingHandshakes, cookieLifetime, suite, handshakesPerAddress, handshakesPerSecond);
    }

    public SecurityConfig withHandshakeBudget(int perAddress, int perSecond) {
        return new SecurityConfig(name, keys, certificate, admission, wallClockSeconds, handshakeRetry,
                handshakeTimeout, rekeyAfter, rejectAfter, rekeyAfterPackets, rejectAfterPackets, replayWindow,
                maxPendingHandshakes, cookieLifetime, cipherSuite, perAddress, perSecond);
    }

    /**
     * The same settings with a renewed certificate: it must name this node and its identity key (the
     * keys stay; a new identity key is a new node to its peers).
     */
    public SecurityConfig withCertificate(NodeCertificate renewed) {
        return new SecurityConfig(name, keys, renewed, admission, wallClockSeconds, handshakeRetry,
                handshakeTimeout, rekeyAfter, rejectAfter, rekeyAfterPackets, rejectAfterPackets, replayWindow,
                maxPendingHandshakes, cookieLifetime, cipherSuite, handshakesPerAddress, handshakesPerSecond);
    }

    /** The same settings under another admission (a new trust list, a revocation). */
    public SecurityConfig withAdmission(Admission newAdmission) {
        return new SecurityConfig(name, keys, certificate, newAdmission, wallClockSeconds, handshakeRetry,
                handshakeTimeout, rekeyAfter, rejectAfter, rekeyAfterPackets, rejectAfterPackets, replayWindow,
                maxPendingHandshakes, cookieLifetime, cipherSuite, handshakesPerAddress, handshakesPerSecond);
    }
}
