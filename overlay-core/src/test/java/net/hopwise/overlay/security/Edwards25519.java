package net.hopwise.overlay.security;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Affine Edwards25519 arithmetic over {@link BigInteger}, slow and simple: what tests need to build
 * the inputs an Ed25519 verifier must judge that no signer makes (points of small order, keys and
 * nonces with a small-order component, non-canonical encodings). Not for production.
 */
final class Edwards25519 {
    static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
    static final BigInteger L = BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));
    private static final BigInteger D = BigInteger.valueOf(-121665)
            .multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
    private static final BigInteger SQRT_MINUS_ONE = BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);

    record Point(BigInteger x, BigInteger y) {}

    static final Point IDENTITY = new Point(BigInteger.ZERO, BigInteger.ONE);
    static final Point BASE = decode(littleEndian(BigInteger.valueOf(4)
            .multiply(BigInteger.valueOf(5).modInverse(P)).mod(P)));
    /** A point of order 8: with its multiples, every small-order point. */
    static final Point TORSION = torsion();

    private Edwards25519() {}

    static Point add(Point a, Point b) {
        BigInteger t = D.multiply(a.x).multiply(b.x).multiply(a.y).multiply(b.y).mod(P);
        BigInteger x = a.x.multiply(b.y).add(a.y.multiply(b.x)).multiply(BigInteger.ONE.add(t).modInverse(P)).mod(P);
        BigInteger y = a.y.multiply(b.y).add(a.x.multiply(b.x))
                .multiply(BigInteger.ONE.subtract(t).mod(P).modInverse(P)).mod(P);
        return new Point(x, y);
    }

    static Point multiply(BigInteger k, Point p) {
        Point r = IDENTITY;
        for (int i = k.bitLength() - 1; i >= 0; i--) {
            r = add(r, r);
            if (k.testBit(i)) {
                r = add(r, p);
            }
        }
        return r;
    }

    /** The point of a canonical encoding, or null for none (not on the curve, y not below p, negative zero). */
    static Point decode(byte[] encoding) {
        byte[] b = encoding.clone();
        boolean negative = (b[31] & 0x80) != 0;
        b[31] &= 0x7F;
        BigInteger y = fromLittleEndian(b);
        if (y.compareTo(P) >= 0) {
            return null;
        }
        BigInteger u = y.multiply(y).subtract(BigInteger.ONE).mod(P);
        BigInteger v = D.multiply(y).multiply(y).add(BigInteger.ONE).mod(P);
        BigInteger x2 = u.multiply(v.modInverse(P)).mod(P);
        BigInteger x = x2.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
        if (!x.multiply(x).subtract(x2).mod(P).equals(BigInteger.ZERO)) {
            x = x.multiply(SQRT_MINUS_ONE).mod(P);
        }
        if (!x.multiply(x).subtract(x2).mod(P).equals(BigInteger.ZERO) || x.signum() == 0 && negative) {
            return null;
        }
        if (x.testBit(0) != negative) {
            x = P.subtract(x);
        }
        return new Point(x, y);
    }

    static byte[] encode(Point p) {
        byte[] b = littleEndian(p.y);
        if (p.x.testBit(0)) {
            b[31] |= (byte) 0x80;
        }
        return b;
    }

    /** Whether {@code encoding} is a canonical point of order 1, 2, 4 or 8. */
    static boolean smallOrder(byte[] encoding) {
        Point p = decode(encoding);
        return p != null && multiply(BigInteger.valueOf(8), p).equals(IDENTITY);
    }

    static BigInteger fromLittleEndian(byte[] b) {
        byte[] be = new byte[b.length + 1];
        for (int i = 0; i < b.length; i++) {
            be[b.length - i] = b[i];
        }
        return new BigInteger(be);
    }

    static byte[] littleEndian(BigInteger v) {
        byte[] b = new byte[32];
        for (int i = 0; i < 32; i++) {
            b[i] = v.shiftRight(8 * i).byteValue();
        }
        return b;
    }

    /** The secret scalar RFC 8032 derives from a 32-byte seed. */
    static BigInteger scalar(byte[] seed) {
        byte[] h = sha512(seed);
        h[0] &= (byte) 248;
        h[31] &= 127;
        h[31] |= 64;
        return fromLittleEndian(Arrays.copyOf(h, 32));
    }

    /**
     * An RFC 8032 signature of {@code message} by the holder of {@code seed} under the key encoded
     * {@code publicKey} (which may differ from the seed's own by a small-order point), with the nonce
     * {@code r} and {@code extra} added to its point R: what only the key holder can make.
     */
    static byte[] sign(byte[] seed, byte[] publicKey, byte[] message, BigInteger r, Point extra) {
        Point big = add(multiply(r, BASE), extra);
        byte[] encodedR = encode(big);
        BigInteger k = fromLittleEndian(sha512(encodedR, publicKey, message)).mod(L);
        BigInteger s = r.add(k.multiply(scalar(seed))).mod(L);
        byte[] signature = new byte[64];
        System.arraycopy(encodedR, 0, signature, 0, 32);
        System.arraycopy(littleEndian(s), 0, signature, 32, 32);
        return signature;
    }

    private static Point torsion() {
        for (int i = 2;; i++) {
            Point q = decode(littleEndian(BigInteger.valueOf(i)));
            if (q == null) {
                continue;
            }
            Point t = multiply(L, q);
            if (!multiply(BigInteger.valueOf(4), t).equals(IDENTITY)) {
                return t;
            }
        }
    }

    private static byte[] sha512(byte[]... parts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-512");
            for (byte[] p : parts) {
                d.update(p);
            }
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
