package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * An AEAD under one key, with the 96-bit nonce Noise uses for it: four zero bytes then a 64-bit
 * counter, little-endian for ChaCha20-Poly1305 and big-endian for AES-GCM. One instance per key and
 * direction; not thread-safe (a link's traffic runs on its node's thread).
 */
public final class Aead {
    public static final int TAG_BYTES = 16;

    private final CipherSuite suite;
    private final SecretKeySpec key;
    private final Cipher encrypt;
    private final Cipher decrypt;
    private final byte[] nonce = new byte[12];
    private byte[] aadScratch = new byte[32];
    private long lastOpened = -1;

    public Aead(byte[] key) {
        this(CipherSuite.CHACHA_POLY, key);
    }

    public Aead(CipherSuite suite, byte[] key) {
        if (key.length != Crypto.KEY_BYTES) {
            throw new IllegalArgumentException("an AEAD key is 32 bytes");
        }
        this.suite = suite;
        this.key = new SecretKeySpec(key, suite.keyAlgorithm);
        try {
            this.encrypt = Cipher.getInstance(suite.transformation);
            this.decrypt = Cipher.getInstance(suite.transformation);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(suite.transformation + " is required by Java 17", e);
        }
    }

    /** Seals {@code plaintext} into {@code out}: the ciphertext then the 16-byte tag. */
    public void seal(long counter, ByteBuffer ad, ByteBuffer plaintext, ByteBuffer out) {
        int n = plaintext.remaining();
        if (plaintext.hasArray() && out.hasArray()) {
            // Java 17's GCM hashes a direct buffer a block at a time in plain Java, several times
            // slower than its intrinsic over an array; the array form is the fast one for both suites.
            if (out.remaining() < n + TAG_BYTES) {
                throw new IllegalArgumentException("no room for the sealed datagram");
            }
            byte[] a = adArray(ad);
            int w = seal(counter, a, ad.hasArray() ? ad.arrayOffset() + ad.position() : 0, ad.remaining(), plaintext.array(),
                    plaintext.arrayOffset() + plaintext.position(), n, out.array(), out.arrayOffset() + out.position());
            ad.position(ad.limit());
            plaintext.position(plaintext.limit());
            out.position(out.position() + w);
            return;
        }
        try {
            encrypt.init(Cipher.ENCRYPT_MODE, key, iv(counter));
            updateAad(encrypt, ad);
            encrypt.doFinal(plaintext, out);
        } catch (ShortBufferException e) {
            throw new IllegalArgumentException("no room for the sealed datagram", e);
        } catch (InvalidKeyException | InvalidAlgorithmParameterException e) {
            throw new IllegalStateException("nonce reuse under one key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Seals {@code len} bytes of {@code in} at {@code inOff} into {@code out} at {@code outOff} (the
     * ciphertext then the tag), authenticating {@code adLen} bytes of {@code ad} at {@code adOff};
     * returns the bytes written. {@code out} may be {@code in} at the same offset: the datagram path
     * seals in place, right behind the header it authenticates, so that nothing is copied twice.
     */
    public int seal(long counter, byte[] ad, int adOff, int adLen, byte[] in, int inOff, int len, byte[] out,
            int outOff) {
        try {
            encrypt.init(Cipher.ENCRYPT_MODE, key, iv(counter));
            if (adLen > 0) {
                encrypt.updateAAD(ad, adOff, adLen);
            }
            return encrypt.doFinal(in, inOff, len, out, outOff);
        } catch (ShortBufferException e) {
            throw new IllegalArgumentException("no room for the sealed datagram", e);
        } catch (InvalidKeyException | InvalidAlgorithmParameterException e) {
            // The JDK refuses a key and nonce pair it used for the previous encryption: a nonce reuse,
            // which the counters exclude; reaching this is a bug, not an input.
            throw new IllegalStateException("nonce reuse under one key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens a sealed buffer into {@code out}; false, with {@code out}'s content undefined, when the
     * tag does not verify.
     */
    public boolean open(long counter, ByteBuffer ad, ByteBuffer sealed, ByteBuffer out) {
        int n = sealed.remaining();
        if (n < TAG_BYTES) {
            return false;
        }
        if (sealed.hasArray() && out.hasArray()) {
            if (out.remaining() < n - TAG_BYTES) {
                throw new IllegalArgumentException("no room for the opened datagram");
            }
            byte[] a = adArray(ad);
            int w = open(counter, a, ad.hasArray() ? ad.arrayOffset() + ad.position() : 0, ad.remaining(), sealed.array(),
                    sealed.arrayOffset() + sealed.position(), n, out.array(), out.arrayOffset() + out.position());
            if (w < 0) {
                return false;
            }
            ad.position(ad.limit());
            sealed.position(sealed.limit());
            out.position(out.position() + w);
            return true;
        }
        try {
            initDecrypt(counter);
            updateAad(decrypt, ad);
            decrypt.doFinal(sealed, out);
            return true;
        } catch (AEADBadTagException e) {
            return false;
        } catch (ShortBufferException e) {
            throw new IllegalArgumentException("no room for the opened datagram", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens {@code len} sealed bytes of {@code in} at {@code inOff} into {@code out} at {@code outOff};
     * the plaintext's length, or -1 when the tag does not verify (then {@code out}'s content there is
     * undefined). {@code out} must not overlap {@code in}: the JDK would open through a copy.
     */
    public int open(long counter, byte[] ad, int adOff, int adLen, byte[] in, int inOff, int len, byte[] out,
            int outOff) {
        if (len < TAG_BYTES) {
            return -1;
        }
        try {
            initDecrypt(counter);
            if (adLen > 0) {
                decrypt.updateAAD(ad, adOff, adLen);
            }
            return decrypt.doFinal(in, inOff, len, out, outOff);
        } catch (AEADBadTagException e) {
            return -1;
        } catch (ShortBufferException e) {
            throw new IllegalArgumentException("no room for the opened datagram", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void initDecrypt(long counter) throws GeneralSecurityException {
        if (counter == lastOpened && suite == CipherSuite.CHACHA_POLY) {
            // Java 17 refuses to initialise a ChaCha20-Poly1305 cipher, even to decrypt, with the key
            // and nonce of its previous initialisation; a forgery and then the real datagram with the
            // same counter do just that. An initialisation with another nonce in between clears it.
            decrypt.init(Cipher.DECRYPT_MODE, key, iv(counter + 1));
        }
        lastOpened = counter;
        decrypt.init(Cipher.DECRYPT_MODE, key, iv(counter));
    }

    public byte[] seal(long counter, byte[] ad, byte[] plaintext) {
        byte[] out = new byte[plaintext.length + TAG_BYTES];
        seal(counter, ByteBuffer.wrap(ad), ByteBuffer.wrap(plaintext), ByteBuffer.wrap(out));
        return out;
    }

    /** The plaintext, or null when the tag does not verify. */
    public byte[] open(long counter, byte[] ad, byte[] sealed) {
        if (sealed.length < TAG_BYTES) {
            return null;
        }
        byte[] out = new byte[sealed.length - TAG_BYTES];
        return open(counter, ByteBuffer.wrap(ad), ByteBuffer.wrap(sealed), ByteBuffer.wrap(out)) ? out : null;
    }

    /** The array that holds {@code ad}'s bytes: its own, or the scratch array they are copied to. */
    private byte[] adArray(ByteBuffer ad) {
        if (ad.hasArray()) {
            return ad.array();
        }
        int n = ad.remaining();
        if (aadScratch.length < n) {
            aadScratch = new byte[n];
        }
        ad.get(ad.position(), aadScratch, 0, n);
        return aadScratch;
    }

    // Java 17's ChaCha20-Poly1305 authenticates a ByteBuffer's AAD wrongly (its tag differs from RFC
    // 8439's); the array form is right, so the AAD always goes in as an array.
    private void updateAad(Cipher cipher, ByteBuffer ad) {
        int n = ad.remaining();
        if (n == 0) {
            return;
        }
        if (ad.hasArray()) {
            cipher.updateAAD(ad.array(), ad.arrayOffset() + ad.position(), n);
        } else {
            if (aadScratch.length < n) {
                aadScratch = new byte[n];
            }
            ad.get(ad.position(), aadScratch, 0, n);
            cipher.updateAAD(aadScratch, 0, n);
        }
        ad.position(ad.limit());
    }

    private AlgorithmParameterSpec iv(long counter) {
        boolean littleEndian = suite == CipherSuite.CHACHA_POLY;
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (counter >>> (littleEndian ? 8 * i : 56 - 8 * i));
        }
        return littleEndian ? new IvParameterSpec(nonce) : new GCMParameterSpec(TAG_BYTES * 8, nonce);
    }
}
