package net.hopwise.overlay.security;

import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * X25519, Ed25519, SHA-256 and HMAC-SHA256 over raw 32-byte keys. The JDK speaks in X.509 and
 * PKCS#8 encodings; every format of ours (key files, certificates, handshakes) carries the raw 32
 * bytes, so the fixed DER prefixes live here and nowhere else. X25519 and Ed25519 verification run on
 * Bouncy Castle's RFC 7748 and RFC 8032 code, which works on raw keys and is several times faster
 * than the JDK's (a handshake is four X25519 operations at each end; docs/security.md, "Cost").
 */
public final class Crypto {
    public static final int KEY_BYTES = 32;
    public static final int SIGNATURE_BYTES = 64;

    // RFC 8410 encodings: a fixed prefix followed by the 32 raw key bytes.
    private static final byte[] ED25519_PUBLIC_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
    private static final byte[] ED25519_PRIVATE_PREFIX = HexFormat.of().parseHex("302e020100300506032b657004220420");

    private static final SecureRandom RANDOM = new SecureRandom();

    private Crypto() {}

    public static SecureRandom random() {
        return RANDOM;
    }

    public static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    /** A fresh X25519 private key (32 raw bytes, clamped as RFC 7748 uses it). */
    public static byte[] newX25519Private() {
        // Random bytes, not the JDK's key pair generator, which computes a public key nobody asked for.
        byte[] k = new byte[KEY_BYTES];
        org.bouncycastle.math.ec.rfc7748.X25519.generatePrivateKey(RANDOM, k);
        return k;
    }

    /** A fresh Ed25519 private key (its 32-byte seed). */
    public static byte[] newEd25519Private() {
        return raw(generate("Ed25519").getPrivate().getEncoded(), ED25519_PRIVATE_PREFIX);
    }

    /** The X25519 public key of a private key: the private key times the base point 9. */
    public static byte[] x25519Public(byte[] privateKey) {
        check(privateKey, "X25519 private key");
        byte[] out = new byte[KEY_BYTES];
        org.bouncycastle.math.ec.rfc7748.X25519.generatePublicKey(privateKey, 0, out, 0);
        return out;
    }

    /**
     * The X25519 shared secret of a private key and a peer's public key.
     *
     * @throws InvalidKeyException for a low-order public key (the result would be all zeros), which
     *     a handshake must refuse rather than derive keys from
     */
    public static byte[] x25519(byte[] privateKey, byte[] peerPublic) throws InvalidKeyException {
        check(privateKey, "X25519 private key");
        check(peerPublic, "X25519 public key");
        byte[] u = peerPublic.clone();
        u[31] &= 0x7F; // RFC 7748: the top bit of u is ignored
        byte[] out = new byte[KEY_BYTES];
        if (!org.bouncycastle.math.ec.rfc7748.X25519.calculateAgreement(privateKey, 0, u, 0, out, 0)) {
            throw new InvalidKeyException("X25519 public key of small order: the shared secret would be all zeros");
        }
        return out;
    }

    /** The Ed25519 public key of a private key (seed). */
    public static byte[] ed25519Public(byte[] privateKey) {
        check(privateKey, "Ed25519 private key");
        // The JDK derives the public key only inside a generator; a generator fed the seed as its
        // randomness yields exactly the key pair of that seed.
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            generator.initialize(NamedParameterSpec.ED25519, new FixedRandom(privateKey));
            KeyPair pair = generator.generateKeyPair();
            byte[] seed = raw(pair.getPrivate().getEncoded(), ED25519_PRIVATE_PREFIX);
            if (!MessageDigest.isEqual(seed, privateKey)) {
                throw new IllegalStateException("the Ed25519 generator did not take the seed");
            }
            return raw(pair.getPublic().getEncoded(), ED25519_PUBLIC_PREFIX);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is required by Java 17", e);
        }
    }

    public static byte[] sign(byte[] privateKey, byte[] message) {
        check(privateKey, "Ed25519 private key");
        try {
            PrivateKey key = KeyFactory.getInstance("Ed25519")
                    .generatePrivate(new PKCS8EncodedKeySpec(concat(ED25519_PRIVATE_PREFIX, privateKey)));
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(key);
            s.update(message);
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is required by Java 17", e);
        }
    }

    /**
     * Whether {@code signature} is a valid Ed25519 signature; false (never an exception) for any bad input.
     *
     * <p>Bouncy Castle's RFC 8032 verifier, about seven times faster than the JDK's (86 against 619 µs
     * on JDK 17), which is what bounds link-state verification at scale. It accepts exactly what the
     * JDK accepts for every key an Ed25519 private key can have, with two differences, both safe: it
     * refuses public keys of small order (under which the JDK accepts a signature of any message:
     * anyone could forge for such a key) and it checks the equation with the cofactor, so a signature
     * whose R its own signer gave a small-order component, which the JDK refuses, passes; nobody
     * without the private key can make one.
     */
    public static boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
        if (publicKey == null || publicKey.length != KEY_BYTES || signature == null
                || signature.length != SIGNATURE_BYTES || message == null) {
            return false;
        }
        try {
            return org.bouncycastle.math.ec.rfc8032.Ed25519.verify(signature, 0, publicKey, 0, message, 0,
                    message.length);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The JDK's Ed25519 verification, kept to check the one in use against it. */
    static boolean verifyWithJdk(byte[] publicKey, byte[] message, byte[] signature) {
        if (publicKey == null || publicKey.length != KEY_BYTES || signature == null
                || signature.length != SIGNATURE_BYTES) {
            return false;
        }
        try {
            PublicKey key = KeyFactory.getInstance("Ed25519")
                    .generatePublic(new X509EncodedKeySpec(concat(ED25519_PUBLIC_PREFIX, publicKey)));
            Signature s = Signature.getInstance("Ed25519");
            s.initVerify(key);
            s.update(message);
            return s.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false; // a public key that is not a curve point is as bad as a wrong signature
        }
    }

    public static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                d.update(p);
            }
            return d.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    public static Mac hmac(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }

    public static byte[] hmac(byte[] key, byte[]... parts) {
        Mac mac = hmac(key);
        for (byte[] p : parts) {
            mac.update(p);
        }
        return mac.doFinal();
    }

    /** A short printable name of a public key: the first 16 bytes of its SHA-256, in hex pairs. */
    public static String fingerprint(byte[] publicKey) {
        byte[] d = sha256(publicKey);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x", d[i] & 0xFF));
        }
        return sb.toString();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static KeyPair generate(String algorithm) {
        try {
            return KeyPairGenerator.getInstance(algorithm).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is required by Java 17", e);
        }
    }

    private static byte[] raw(byte[] encoded, byte[] prefix) {
        if (encoded.length != prefix.length + KEY_BYTES
                || !Arrays.equals(encoded, 0, prefix.length, prefix, 0, prefix.length)) {
            throw new IllegalStateException("unexpected key encoding from the JDK");
        }
        return Arrays.copyOfRange(encoded, prefix.length, encoded.length);
    }

    private static void check(byte[] key, String what) {
        if (key == null || key.length != KEY_BYTES) {
            throw new IllegalArgumentException(what + " must be " + KEY_BYTES + " bytes");
        }
    }

    /** Randomness that returns one fixed seed: how the JDK is made to derive a key pair from it. */
    private static final class FixedRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] seed;

        FixedRandom(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("the Ed25519 generator asked for " + bytes.length + " bytes");
            }
            System.arraycopy(seed, 0, bytes, 0, seed.length);
        }
    }
}
