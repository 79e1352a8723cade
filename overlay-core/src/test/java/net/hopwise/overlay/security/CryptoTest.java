package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class CryptoTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void ed25519MatchesRfc8032TestOne() {
        byte[] seed = HEX.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
        byte[] pub = Crypto.ed25519Public(seed);
        assertThat(HEX.formatHex(pub)).isEqualTo("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
        byte[] sig = Crypto.sign(seed, new byte[0]);
        assertThat(HEX.formatHex(sig)).isEqualTo("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e0652249015"
                + "55fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
        assertThat(Crypto.verify(pub, new byte[0], sig)).isTrue();
        sig[3] ^= 1;
        assertThat(Crypto.verify(pub, new byte[0], sig)).isFalse();
        assertThat(Crypto.verify(new byte[32], new byte[0], sig)).isFalse();
        assertThat(Crypto.verify(pub, new byte[0], new byte[3])).isFalse();
    }

    @Test
    void x25519MatchesRfc7748() throws Exception {
        byte[] a = HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        byte[] b = HEX.parseHex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
        assertThat(HEX.formatHex(Crypto.x25519Public(a))).isEqualTo("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
        assertThat(HEX.formatHex(Crypto.x25519Public(b))).isEqualTo("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
        assertThat(HEX.formatHex(Crypto.x25519(a, Crypto.x25519Public(b))))
                .isEqualTo("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
        assertThatThrownBy(() -> Crypto.x25519(a, new byte[32])).isInstanceOf(InvalidKeyException.class);
    }

    @Test
    void freshKeysDeriveTheirPublicHalves() {
        byte[] seed = Crypto.newEd25519Private();
        byte[] msg = "m".getBytes(StandardCharsets.UTF_8);
        assertThat(Crypto.verify(Crypto.ed25519Public(seed), msg, Crypto.sign(seed, msg))).isTrue();
    }

    /**
     * Java 17's ChaCha20-Poly1305 computes a wrong tag when the AAD is handed in as a ByteBuffer; the
     * expected value is pyca/cryptography's (OpenSSL's) for the same inputs.
     */
    @Test
    void aeadTagIsRfc8439sWhateverBufferTheAadComesIn() {
        byte[] key = new byte[32];
        for (int i = 0; i < 32; i++) {
            key[i] = (byte) i;
        }
        byte[] ad = new byte[32];
        ad[0] = 7;
        String expected = "70dd2e5dc27f87e002a6c09c71bbfba15c20d9d16a";
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        assertThat(HEX.formatHex(new Aead(key).seal(0, ad, hello))).isEqualTo(expected);
        ByteBuffer direct = ByteBuffer.allocateDirect(32).put(ad).flip();
        ByteBuffer out = ByteBuffer.allocate(21);
        new Aead(key).seal(0, direct, ByteBuffer.wrap(hello), out);
        assertThat(HEX.formatHex(out.array())).isEqualTo(expected);
        assertThat(new Aead(key).open(0, ad, HEX.parseHex(expected))).isEqualTo(hello);
        assertThat(new Aead(key).open(1, ad, HEX.parseHex(expected))).isNull();
    }

    /**
     * Sealing runs over arrays where it can (Java 17's GCM hashes a direct buffer in plain Java):
     * every mix of heap and direct buffers gives the same bytes, and each opens the others' output.
     */
    @Test
    void aeadGivesTheSameBytesOverArraysAndDirectBuffers() {
        for (CipherSuite suite : CipherSuite.values()) {
            byte[] key = Crypto.randomBytes(32);
            byte[] ad = Crypto.randomBytes(13);
            byte[] plain = Crypto.randomBytes(1000);
            byte[] expected = new Aead(suite, key).seal(5, ad, plain);
            for (boolean directIn : new boolean[] {false, true}) {
                for (boolean directOut : new boolean[] {false, true}) {
                    ByteBuffer in = buffer(plain, directIn, 3);
                    ByteBuffer out = buffer(new byte[expected.length + 4], directOut, 2);
                    out.position(out.position() + 4).limit(out.position() + expected.length);
                    new Aead(suite, key).seal(5, ByteBuffer.wrap(ad), in, out);
                    byte[] got = new byte[expected.length];
                    out.position(out.position() - expected.length).get(got);
                    assertThat(got).as("%s, direct in %s, direct out %s", suite, directIn, directOut).isEqualTo(expected);

                    ByteBuffer sealed = buffer(expected, directIn, 1);
                    ByteBuffer opened = buffer(new byte[plain.length], directOut, 7);
                    assertThat(new Aead(suite, key).open(5, ByteBuffer.wrap(ad), sealed, opened)).isTrue();
                    byte[] back = new byte[plain.length];
                    opened.flip().position(7);
                    opened.get(back);
                    assertThat(back).isEqualTo(plain);
                }
            }
        }
    }

    /** A buffer holding {@code content} behind {@code skip} bytes, positioned at the content. */
    private static ByteBuffer buffer(byte[] content, boolean direct, int skip) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(skip + content.length) : ByteBuffer.allocate(skip + content.length + 5)
                .position(2).slice(); // a heap slice: an array offset other than zero
        b.position(skip);
        b.put(content);
        b.position(skip).limit(skip + content.length);
        return b;
    }

    /**
     * AES-256-GCM is the default where the JVM runs it on the processor's instructions; this
     * machine's JVM does on x86 with AES-NI, where the check is made.
     */
    @Test
    void defaultSuiteIsAesGcmWhereTheJvmHasAesInstructions() {
        var vm = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
        boolean intrinsics = Boolean.parseBoolean(vm.getVMOption("UseAES").getValue());
        assertThat(CipherSuite.preferred()).isEqualTo(intrinsics ? CipherSuite.AES_GCM : CipherSuite.CHACHA_POLY);
        assertThat(SecurityConfig.of("a", NodeKeys.generate(), null, new TrustedKeys(java.util.Map.of())).cipherSuite())
                .isEqualTo(CipherSuite.preferred());
    }
}
