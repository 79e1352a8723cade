package net.hopwise.overlay.security;

import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Admission by certificate: a node is admitted under a name when it presents a certificate for that
 * name and its identity key, signed by a trusted authority, valid now and not revoked. Scales to
 * any number of nodes without touching every node's configuration when one joins.
 */
public final class AuthorityAdmission implements Admission {
    private final Set<String> authorities;
    private final Set<Long> revokedSerials;
    private final Set<String> revokedKeys;

    /**
     * @param revokedSerials serials of certificates no longer honoured (by any trusted authority)
     * @param revokedKeys identity keys no longer honoured, whatever certifies them
     */
    public AuthorityAdmission(Set<byte[]> authorityKeys, Set<Long> revokedSerials, Set<byte[]> revokedKeys) {
        if (authorityKeys.isEmpty()) {
            throw new IllegalArgumentException("no authority key");
        }
        this.authorities = hex(authorityKeys);
        this.revokedSerials = Set.copyOf(revokedSerials);
        this.revokedKeys = hex(revokedKeys);
    }

    public static AuthorityAdmission of(byte[] authorityKey) {
        return new AuthorityAdmission(Set.of(authorityKey), Set.of(), Set.of());
    }

    @Override
    public Verdict check(String name, byte[] identityKey, NodeCertificate certificate, long epochSeconds) {
        return check(name, identityKey, certificate, epochSeconds, NodeCertificate::signatureValid);
    }

    @Override
    public Verdict check(String name, byte[] identityKey, NodeCertificate certificate, long epochSeconds,
            Predicate<NodeCertificate> signatureValid) {
        if (certificate == null) {
            return Verdict.NO_CERTIFICATE;
        }
        // The authority is looked up first: a certificate of an untrusted one costs no verification.
        if (!authorities.contains(HexFormat.of().formatHex(certificate.authorityKey()))
                || !signatureValid.test(certificate)) {
            return Verdict.BAD_CERTIFICATE;
        }
        if (!certificate.name().equals(name) || !java.util.Arrays.equals(certificate.identityKey(), identityKey)) {
            return Verdict.CERTIFICATE_MISMATCH;
        }
        if (revokedSerials.contains(certificate.serial()) || revokedKeys.contains(HexFormat.of().formatHex(identityKey))) {
            return Verdict.REVOKED;
        }
        return certificate.validAt(epochSeconds) ? Verdict.ADMITTED : Verdict.EXPIRED;
    }

    /** Whether certificates of the authority with {@code authorityKey} admit here. */
    public boolean trusts(byte[] authorityKey) {
        return authorityKey != null && authorities.contains(HexFormat.of().formatHex(authorityKey));
    }

    /** This admission with {@code list}'s revocations added to its own. */
    public AuthorityAdmission revoking(RevocationList list) {
        Set<Long> serials = new HashSet<>(revokedSerials);
        serials.addAll(list.serials());
        Set<byte[]> keys = new HashSet<>();
        revokedKeys.forEach(k -> keys.add(HexFormat.of().parseHex(k)));
        keys.addAll(list.keys());
        Set<byte[]> authorityKeys = new HashSet<>();
        authorities.forEach(k -> authorityKeys.add(HexFormat.of().parseHex(k)));
        return new AuthorityAdmission(authorityKeys, serials, keys);
    }

    private static Set<String> hex(Set<byte[]> keys) {
        Set<String> out = new HashSet<>();
        for (byte[] k : keys) {
            if (k.length != Crypto.KEY_BYTES) {
                throw new IllegalArgumentException("an Ed25519 key is 32 bytes");
            }
            out.add(HexFormat.of().formatHex(k));
        }
        return Set.copyOf(out);
    }
}
