package net.hopwise.overlay.security;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.util.Arrays;

/**
 * The Noise handshake Noise_XX_25519_ChaChaPoly_SHA256 (or _AESGCM_, see {@link CipherSuite}; Noise
 * Protocol Framework, revision 34), one instance per handshake attempt:
 *
 * <pre>
 *   -&gt; e
 *   &lt;- e, ee, s, es
 *   -&gt; s, se
 * </pre>
 *
 * XX because neither side needs the other's static key beforehand (a node learns a neighbour's key
 * from the handshake and admits it by its trusted list or its certificate), both statics travel
 * encrypted, and every session key depends on fresh ephemeral keys (forward secrecy). Sans-IO: byte
 * arrays in and out. A method that fails (a bad tag, a low-order key, a message out of turn) throws
 * {@link HandshakeException} and leaves the instance unusable; callers drop the attempt.
 */
public final class NoiseXX {
    public static final String PROTOCOL_NAME = CipherSuite.CHACHA_POLY.protocolName();
    public static final int DH_BYTES = 32;
    /** Overhead of each message over its payload: the first carries e, the second e and an encrypted s, the third an encrypted s. */
    public static final int MESSAGE1_OVERHEAD = DH_BYTES;
    public static final int MESSAGE2_OVERHEAD = DH_BYTES + DH_BYTES + Aead.TAG_BYTES + Aead.TAG_BYTES;
    public static final int MESSAGE3_OVERHEAD = DH_BYTES + Aead.TAG_BYTES + Aead.TAG_BYTES;

    private final boolean initiator;
    private final byte[] staticPrivate;
    private final byte[] staticPublic;
    private final byte[] ephemeralPrivate;
    private final byte[] ephemeralPublic;
    private byte[] remoteEphemeral;
    private byte[] remoteStatic;
    private final SymmetricState symmetric;
    private int step;
    private boolean failed;

    /**
     * @param ephemeralPrivate the ephemeral key to use: fresh randomness in use, fixed only where test
     *     vectors prescribe it
     */
    public NoiseXX(boolean initiator, byte[] prologue, byte[] staticPrivate, byte[] ephemeralPrivate) {
        this(CipherSuite.CHACHA_POLY, initiator, prologue, staticPrivate, ephemeralPrivate);
    }

    public NoiseXX(CipherSuite suite, boolean initiator, byte[] prologue, byte[] staticPrivate,
            byte[] ephemeralPrivate) {
        this.symmetric = new SymmetricState(suite);
        this.initiator = initiator;
        this.staticPrivate = staticPrivate.clone();
        this.staticPublic = Crypto.x25519Public(staticPrivate);
        this.ephemeralPrivate = ephemeralPrivate.clone();
        this.ephemeralPublic = Crypto.x25519Public(ephemeralPrivate);
        symmetric.initialize(suite.protocolName().getBytes(StandardCharsets.US_ASCII));
        symmetric.mixHash(prologue);
    }

    public static NoiseXX initiator(byte[] prologue, byte[] staticPrivate) {
        return initiator(CipherSuite.CHACHA_POLY, prologue, staticPrivate);
    }

    public static NoiseXX responder(byte[] prologue, byte[] staticPrivate) {
        return responder(CipherSuite.CHACHA_POLY, prologue, staticPrivate);
    }

    public static NoiseXX initiator(CipherSuite suite, byte[] prologue, byte[] staticPrivate) {
        return new NoiseXX(suite, true, prologue, staticPrivate, Crypto.newX25519Private());
    }

    public static NoiseXX responder(CipherSuite suite, byte[] prologue, byte[] staticPrivate) {
        return new NoiseXX(suite, false, prologue, staticPrivate, Crypto.newX25519Private());
    }

    public boolean isInitiator() {
        return initiator;
    }

    /** Whether all three messages were written or read. */
    public boolean isComplete() {
        return step == 3 && !failed;
    }

    /** Whose turn the next message is: true when this side writes it. */
    public boolean writesNext() {
        return (step % 2 == 0) == initiator;
    }

    /** The peer's static public key, known after the second message (initiator) or the third (responder). */
    public byte[] remoteStatic() {
        return remoteStatic == null ? null : remoteStatic.clone();
    }

    public byte[] localEphemeralPublic() {
        return ephemeralPublic.clone();
    }

    /** The handshake hash: a value both sides share that names this handshake (channel binding). */
    public byte[] handshakeHash() {
        return symmetric.h.clone();
    }

    public byte[] writeMessage(byte[] payload) throws HandshakeException {
        if (failed || step >= 3 || !writesNext()) {
            throw fail("message " + (step + 1) + " is not ours to write");
        }
        try {
            byte[] out;
            switch (step) {
                case 0 -> {
                    symmetric.mixHash(ephemeralPublic);
                    out = concat(ephemeralPublic, symmetric.encryptAndHash(payload));
                }
                case 1 -> {
                    symmetric.mixHash(ephemeralPublic);
                    symmetric.mixKey(dh(ephemeralPrivate, remoteEphemeral));
                    byte[] s = symmetric.encryptAndHash(staticPublic);
                    symmetric.mixKey(dh(staticPrivate, remoteEphemeral));
                    out = concat(ephemeralPublic, concat(s, symmetric.encryptAndHash(payload)));
                }
                default -> {
                    byte[] s = symmetric.encryptAndHash(staticPublic);
                    symmetric.mixKey(dh(staticPrivate, remoteEphemeral));
                    out = concat(s, symmetric.encryptAndHash(payload));
                }
            }
            step++;
            return out;
        } catch (HandshakeException e) {
            failed = true;
            throw e;
        }
    }

    /** Reads a message of the peer's and returns its payload. */
    public byte[] readMessage(byte[] message) throws HandshakeException {
        if (failed || step >= 3 || writesNext()) {
            throw fail("message " + (step + 1) + " is not the peer's to send");
        }
        try {
            byte[] payload;
            switch (step) {
                case 0 -> {
                    require(message, MESSAGE1_OVERHEAD);
                    remoteEphemeral = Arrays.copyOf(message, DH_BYTES);
                    symmetric.mixHash(remoteEphemeral);
                    payload = symmetric.decryptAndHash(Arrays.copyOfRange(message, DH_BYTES, message.length));
                }
                case 1 -> {
                    require(message, MESSAGE2_OVERHEAD);
                    remoteEphemeral = Arrays.copyOf(message, DH_BYTES);
                    symmetric.mixHash(remoteEphemeral);
                    symmetric.mixKey(dh(ephemeralPrivate, remoteEphemeral));
                    int sEnd = DH_BYTES + DH_BYTES + Aead.TAG_BYTES;
                    remoteStatic = symmetric.decryptAndHash(Arrays.copyOfRange(message, DH_BYTES, sEnd));
                    symmetric.mixKey(dh(ephemeralPrivate, remoteStatic));
                    payload = symmetric.decryptAndHash(Arrays.copyOfRange(message, sEnd, message.length));
                }
                default -> {
                    require(message, MESSAGE3_OVERHEAD);
                    int sEnd = DH_BYTES + Aead.TAG_BYTES;
                    remoteStatic = symmetric.decryptAndHash(Arrays.copyOf(message, sEnd));
                    symmetric.mixKey(dh(ephemeralPrivate, remoteStatic));
                    payload = symmetric.decryptAndHash(Arrays.copyOfRange(message, sEnd, message.length));
                }
            }
            step++;
            return payload;
        } catch (HandshakeException e) {
            failed = true;
            throw e;
        }
    }

    /**
     * The two transport keys once the handshake is complete: [0] for what the initiator sends, [1]
     * for what the responder sends.
     */
    public byte[][] split() throws HandshakeException {
        if (!isComplete()) {
            throw new HandshakeException("the handshake is not complete");
        }
        byte[][] keys = SymmetricState.hkdf(symmetric.ck, new byte[0], 2);
        return keys;
    }

    private HandshakeException fail(String why) {
        failed = true;
        return new HandshakeException(why);
    }

    private static void require(byte[] message, int overhead) throws HandshakeException {
        if (message.length < overhead) {
            throw new HandshakeException("message too short: " + message.length + " bytes");
        }
    }

    private static byte[] dh(byte[] priv, byte[] pub) throws HandshakeException {
        try {
            return Crypto.x25519(priv, pub);
        } catch (InvalidKeyException e) {
            throw new HandshakeException("the peer's key has small order");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        return Crypto.concat(a, b);
    }

    /** Noise's SymmetricState with its CipherState folded in. */
    private static final class SymmetricState {
        final CipherSuite suite;
        byte[] ck;
        byte[] h;
        Aead cipher;
        long n;

        SymmetricState(CipherSuite suite) {
            this.suite = suite;
        }

        void initialize(byte[] protocolName) {
            h = protocolName.length <= 32 ? Arrays.copyOf(protocolName, 32) : Crypto.sha256(protocolName);
            ck = h.clone();
        }

        void mixHash(byte[] data) {
            h = Crypto.sha256(h, data);
        }

        void mixKey(byte[] ikm) {
            byte[][] out = hkdf(ck, ikm, 2);
            ck = out[0];
            cipher = new Aead(suite, out[1]);
            n = 0;
        }

        byte[] encryptAndHash(byte[] plaintext) {
            byte[] c = cipher == null ? plaintext.clone() : cipher.seal(n++, h, plaintext);
            mixHash(c);
            return c;
        }

        byte[] decryptAndHash(byte[] ciphertext) throws HandshakeException {
            byte[] p;
            if (cipher == null) {
                p = ciphertext.clone();
            } else {
                p = cipher.open(n, h, ciphertext);
                if (p == null) {
                    throw new HandshakeException("a handshake message does not authenticate");
                }
                n++;
            }
            mixHash(ciphertext);
            return p;
        }

        static byte[][] hkdf(byte[] chainingKey, byte[] ikm, int outputs) {
            byte[] temp = Crypto.hmac(chainingKey, ikm);
            byte[][] out = new byte[outputs][];
            byte[] previous = new byte[0];
            for (int i = 0; i < outputs; i++) {
                previous = Crypto.hmac(temp, previous, new byte[] {(byte) (i + 1)});
                out[i] = previous;
            }
            return out;
        }
    }
}
