package net.hopwise.overlay.security;

import java.util.List;
import java.util.function.Predicate;

/**
 * Whether a peer that proved possession of an identity key may take part under the name it claims.
 * Checked on the node's thread for every completed handshake; implementations are immutable (a new
 * trust list is a new instance) so that a check needs no lock.
 */
public interface Admission {
    /** The outcome of a check: {@link #ADMITTED} or why not. */
    enum Verdict {
        ADMITTED,
        /** No trusted key and no certificate authority is configured for this name. */
        UNKNOWN_NAME,
        /** The name is listed, with other keys. */
        KEY_NOT_TRUSTED,
        /** Only certificates admit here, and the peer sent none. */
        NO_CERTIFICATE,
        /** Signed by no trusted authority, or the signature does not verify. */
        BAD_CERTIFICATE,
        /** A certificate for another name or another key. */
        CERTIFICATE_MISMATCH,
        /** Outside its validity. */
        EXPIRED,
        /** The key or certificate serial is revoked. */
        REVOKED;

        public boolean admitted() {
            return this == ADMITTED;
        }
    }

    /**
     * @param certificate what the peer presented, or null
     * @param epochSeconds wall-clock time, for certificate validity
     */
    Verdict check(String name, byte[] identityKey, NodeCertificate certificate, long epochSeconds);

    /**
     * As {@link #check(String, byte[], NodeCertificate, long)}, with a certificate's signature checked
     * by {@code signatureValid}: the link-state verifier meets the same certificate once per version
     * of its origin's link state, and answers from what it verified before instead of another Ed25519
     * verification. Admissions that read no certificate ignore it.
     */
    default Verdict check(String name, byte[] identityKey, NodeCertificate certificate, long epochSeconds,
            Predicate<NodeCertificate> signatureValid) {
        return check(name, identityKey, certificate, epochSeconds);
    }

    /** Admits what any of {@code admissions} admits; otherwise the first one's reason. */
    static Admission anyOf(List<Admission> admissions) {
        List<Admission> copy = List.copyOf(admissions);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("no admission configured: a node with keys needs a trusted key list"
                    + " or an authority key");
        }
        return new Admission() {
            @Override
            public Verdict check(String name, byte[] key, NodeCertificate certificate, long now) {
                return check(name, key, certificate, now, NodeCertificate::signatureValid);
            }

            @Override
            public Verdict check(String name, byte[] key, NodeCertificate certificate, long now,
                    Predicate<NodeCertificate> signatureValid) {
                Verdict first = null;
                for (Admission a : copy) {
                    Verdict v = a.check(name, key, certificate, now, signatureValid);
                    if (v.admitted()) {
                        return v;
                    }
                    if (first == null) {
                        first = v;
                    }
                }
                return first;
            }
        };
    }
}
