package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Arrays;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The Ed25519 verifier in use (Bouncy Castle's) against the JDK's: keys and signatures are the same
 * standard Ed25519 (one seed gives both the same key and, Ed25519 being deterministic, the same
 * signature), and the two verifiers give the same verdict on honest, altered and arbitrary inputs,
 * non-canonical encodings included, except on the two kinds of input {@link Crypto#verify} documents:
 * a public key of small order (refused by ours, where the JDK accepts forgeries) and a nonce its own
 * signer gave a small-order component.
 */
class Ed25519Properties {
    private static final BigInteger SMALL_ORDER = BigInteger.valueOf(8);

    @Property(tries = 60, seed = "25519")
    void theJdkAndBouncyCastleMakeTheSameKeysAndSignatures(@ForAll @Size(32) byte[] seed,
            @ForAll @Size(max = 300) byte[] message) {
        byte[] key = Crypto.ed25519Public(seed);
        byte[] bcKey = new byte[32];
        org.bouncycastle.math.ec.rfc8032.Ed25519.generatePublicKey(seed, 0, bcKey, 0);
        assertThat(bcKey).isEqualTo(key);
        byte[] signature = Crypto.sign(seed, message);
        byte[] bcSignature = new byte[64];
        org.bouncycastle.math.ec.rfc8032.Ed25519.sign(seed, 0, message, 0, message.length, bcSignature, 0);
        assertThat(bcSignature).isEqualTo(signature);
        assertThat(Crypto.verify(key, message, signature)).isTrue();
        assertThat(Crypto.verifyWithJdk(key, message, signature)).isTrue();
    }

    /**
     * Kinds of input: 0 honest, 1 a bit of the signature flipped, 2 a bit of the message, 3 a bit of
     * the key, 4 S plus the group order (non-canonical S), 5 R not canonical (y at least p), 6 the key
     * not canonical, 7 arbitrary bytes, 8 a key of small order with a forged signature.
     */
    @Property(tries = 400, seed = "25519")
    void bothVerifiersGiveTheSameVerdict(@ForAll @Size(32) byte[] seed, @ForAll @Size(max = 200) byte[] message,
            @ForAll @IntRange(min = 0, max = 8) int kind, @ForAll @IntRange(min = 0, max = 511) int bit,
            @ForAll @Size(96) byte[] noise) {
        byte[] key = Crypto.ed25519Public(seed);
        byte[] signature = Crypto.sign(seed, message);
        byte[] m = message;
        switch (kind) {
            case 1 -> signature[bit / 8] ^= (byte) (1 << (bit % 8));
            case 2 -> {
                m = message.length == 0 ? new byte[] {1} : message.clone();
                m[(bit / 8) % m.length] ^= (byte) (1 << (bit % 8));
            }
            case 3 -> key[(bit / 8) % 32] ^= (byte) (1 << (bit % 8));
            case 4 -> {
                BigInteger s = Edwards25519.fromLittleEndian(Arrays.copyOfRange(signature, 32, 64));
                System.arraycopy(Edwards25519.littleEndian(s.add(Edwards25519.L)), 0, signature, 32, 32);
            }
            case 5 -> System.arraycopy(nonCanonical(bit), 0, signature, 0, 32);
            case 6 -> key = nonCanonical(bit);
            case 7 -> {
                key = Arrays.copyOf(noise, 32);
                signature = Arrays.copyOfRange(noise, 32, 96);
            }
            case 8 -> {
                key = Edwards25519.encode(Edwards25519.multiply(BigInteger.valueOf(bit % 8), Edwards25519.TORSION));
                signature = new byte[64];
                byte[] r = Edwards25519.encode(Edwards25519.multiply(BigInteger.valueOf(bit / 64), Edwards25519.TORSION));
                System.arraycopy(r, 0, signature, 0, 32);
            }
            default -> { }
        }
        boolean ours = Crypto.verify(key, m, signature);
        if (Edwards25519.smallOrder(key)) {
            assertThat(ours).as("a key of small order verifies nothing").isFalse();
        } else {
            assertThat(ours).isEqualTo(Crypto.verifyWithJdk(key, m, signature));
        }
        if (kind == 0) {
            assertThat(ours).isTrue();
        } else if (kind != 7) {
            assertThat(ours).as("an altered or forged input is refused").isFalse();
        }
    }

    @Example
    void aKeyOfSmallOrderAdmitsNoForgery() {
        // The neutral point as the key, R the neutral point and S zero: the equation holds for any
        // message, so the JDK accepts this signature of a message nobody signed.
        byte[] key = Edwards25519.encode(Edwards25519.IDENTITY);
        byte[] forged = new byte[64];
        System.arraycopy(key, 0, forged, 0, 32);
        byte[] message = "origin b: links to a, c and d".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(Crypto.verifyWithJdk(key, message, forged)).isTrue();
        assertThat(Crypto.verify(key, message, forged)).isFalse();
    }

    @Example
    void aNonceWithASmallOrderComponentIsTheOneDifferenceAndOnlyItsSignerCanMakeIt() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 7);
        byte[] key = Crypto.ed25519Public(seed);
        byte[] message = {1, 2, 3};
        byte[] plain = Edwards25519.sign(seed, key, message, BigInteger.valueOf(123456789), Edwards25519.IDENTITY);
        assertThat(Crypto.verify(key, message, plain)).isTrue();
        assertThat(Crypto.verifyWithJdk(key, message, plain)).isTrue();
        byte[] twisted = Edwards25519.sign(seed, key, message, BigInteger.valueOf(123456789), Edwards25519.TORSION);
        assertThat(Crypto.verifyWithJdk(key, message, twisted)).isFalse();
        assertThat(Crypto.verify(key, message, twisted)).isTrue();
        assertThat(Edwards25519.multiply(SMALL_ORDER, Edwards25519.TORSION)).isEqualTo(Edwards25519.IDENTITY);
    }

    /** An encoding whose y is p or more (p plus 0 to 18), with either sign bit. */
    private static byte[] nonCanonical(int bit) {
        byte[] b = Edwards25519.littleEndian(Edwards25519.P.add(BigInteger.valueOf(bit % 19)));
        if ((bit & 0x100) != 0) {
            b[31] |= (byte) 0x80;
        }
        return b;
    }
}
