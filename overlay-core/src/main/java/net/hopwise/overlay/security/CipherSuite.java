package net.hopwise.overlay.security;

/**
 * The AEAD of a node's links, as Noise names it; both ends of a link must use the same one (a
 * mismatch fails the handshake's second message, a counted drop).
 *
 * <p>Java 17 runs AES-GCM with the processor's AES and carry-less multiply instructions and
 * ChaCha20-Poly1305 in plain Java: on x86 servers AES-GCM seals a full datagram about eight times
 * faster (docs/security.md, "Cost"). ChaCha20-Poly1305 is the choice for processors without AES
 * instructions and is constant-time everywhere.
 */
public enum CipherSuite {
    CHACHA_POLY("ChaChaPoly", "ChaCha20-Poly1305", "ChaCha20"),
    AES_GCM("AESGCM", "AES/GCM/NoPadding", "AES");

    private final String noiseName;
    final String transformation;
    final String keyAlgorithm;

    CipherSuite(String noiseName, String transformation, String keyAlgorithm) {
        this.noiseName = noiseName;
        this.transformation = transformation;
        this.keyAlgorithm = keyAlgorithm;
    }

    /**
     * AES_GCM when this JVM runs AES on the processor's instructions (HotSpot's {@code UseAES}, which
     * it sets where the processor has them and which its AES-GCM intrinsics require), where it is the
     * cheaper cipher by far and constant-time; CHACHA_POLY otherwise, since AES in software is both slow and open to cache
     * timing. Both ends of a link must choose alike: an overlay of mixed processors sets one suite.
     */
    public static CipherSuite preferred() {
        return PREFERRED;
    }

    private static final CipherSuite PREFERRED = hasAesInstructions() ? AES_GCM : CHACHA_POLY;

    private static boolean hasAesInstructions() {
        try {
            var vm = java.lang.management.ManagementFactory.getPlatformMXBean(
                    com.sun.management.HotSpotDiagnosticMXBean.class);
            return vm != null && Boolean.parseBoolean(vm.getVMOption("UseAES").getValue());
        } catch (RuntimeException | LinkageError e) {
            return false; // not HotSpot, or the flags are unknown: assume no intrinsics
        }
    }

    /** The Noise protocol name of the XX handshake with this cipher. */
    public String protocolName() {
        return "Noise_XX_25519_" + noiseName + "_SHA256";
    }
}
