package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.security.Admission.Verdict;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class IdentityTest {
    private static final long NOW = 1_800_000_000L;

    @Test
    void certificateRoundTripsAndAnyFlippedByteBreaksIt() {
        byte[] authority = Crypto.newEd25519Private();
        NodeKeys node = NodeKeys.generate();
        NodeCertificate c = NodeCertificate.sign(authority, "node-a", node.identityPublic(), NOW, NOW + 86_400, 42);
        byte[] bytes = c.encode();
        assertThat(bytes).hasSize(158 + "node-a".length());
        NodeCertificate back = NodeCertificate.decode(bytes).orElseThrow();
        assertThat(back).isEqualTo(c);
        assertThat(back.signatureValid()).isTrue();
        assertThat(back.serial()).isEqualTo(42);
        for (int i = 0; i < bytes.length; i++) {
            byte[] t = bytes.clone();
            t[i] ^= 0x10;
            assertThat(NodeCertificate.decode(t).map(NodeCertificate::signatureValid).orElse(false))
                    .as("byte %d flipped", i).isFalse();
        }
    }

    @Property(seed = "4242")
    void decodingArbitraryBytesNeverThrows(@ForAll @Size(max = 300) byte[] bytes) {
        NodeCertificate.decode(bytes).ifPresent(NodeCertificate::signatureValid);
    }

    @Test
    void authorityAdmitsOnlyAValidMatchingUnrevokedCertificate() {
        byte[] authority = Crypto.newEd25519Private();
        byte[] key = NodeKeys.generate().identityPublic();
        byte[] other = NodeKeys.generate().identityPublic();
        NodeCertificate c = NodeCertificate.sign(authority, "node-a", key, NOW, NOW + 100, 7);
        AuthorityAdmission admission = AuthorityAdmission.of(Crypto.ed25519Public(authority));
        assertThat(admission.check("node-a", key, c, NOW + 50)).isEqualTo(Verdict.ADMITTED);
        assertThat(admission.check("node-a", key, null, NOW)).isEqualTo(Verdict.NO_CERTIFICATE);
        assertThat(admission.check("node-b", key, c, NOW)).isEqualTo(Verdict.CERTIFICATE_MISMATCH);
        assertThat(admission.check("node-a", other, c, NOW)).isEqualTo(Verdict.CERTIFICATE_MISMATCH);
        assertThat(admission.check("node-a", key, c, NOW + 101)).isEqualTo(Verdict.EXPIRED);
        assertThat(admission.check("node-a", key, c, NOW - 1)).isEqualTo(Verdict.EXPIRED);
        NodeCertificate foreign = NodeCertificate.sign(Crypto.newEd25519Private(), "node-a", key, NOW, NOW + 100, 7);
        assertThat(admission.check("node-a", key, foreign, NOW)).isEqualTo(Verdict.BAD_CERTIFICATE);
        // a certificate whose authority field names the trusted key but which that key did not sign
        NodeCertificate forged = new NodeCertificate("node-a", key, NOW, NOW + 100, 7,
                Crypto.ed25519Public(authority), foreign.signature());
        assertThat(admission.check("node-a", key, forged, NOW)).isEqualTo(Verdict.BAD_CERTIFICATE);
        AuthorityAdmission revokedSerial =
                new AuthorityAdmission(Set.of(Crypto.ed25519Public(authority)), Set.of(7L), Set.of());
        assertThat(revokedSerial.check("node-a", key, c, NOW)).isEqualTo(Verdict.REVOKED);
        AuthorityAdmission revokedKey =
                new AuthorityAdmission(Set.of(Crypto.ed25519Public(authority)), Set.of(), Set.of(key));
        assertThat(revokedKey.check("node-a", key, c, NOW)).isEqualTo(Verdict.REVOKED);
    }

    @Test
    void trustedKeysAdmitListedKeysPerName() {
        byte[] a = NodeKeys.generate().identityPublic();
        byte[] a2 = NodeKeys.generate().identityPublic();
        byte[] b = NodeKeys.generate().identityPublic();
        TrustedKeys trusted = new TrustedKeys(Map.of("node-a", List.of(a, a2), "node-b", List.of(b)));
        assertThat(trusted.check("node-a", a, null, NOW)).isEqualTo(Verdict.ADMITTED);
        assertThat(trusted.check("node-a", a2, null, NOW)).isEqualTo(Verdict.ADMITTED);
        assertThat(trusted.check("node-a", b, null, NOW)).isEqualTo(Verdict.KEY_NOT_TRUSTED);
        assertThat(trusted.check("node-c", a, null, NOW)).isEqualTo(Verdict.UNKNOWN_NAME);

        byte[] authority = Crypto.newEd25519Private();
        byte[] c = NodeKeys.generate().identityPublic();
        Admission either = Admission.anyOf(List.of(trusted, AuthorityAdmission.of(Crypto.ed25519Public(authority))));
        NodeCertificate cert = NodeCertificate.sign(authority, "node-c", c, NOW, NOW + 10, 1);
        assertThat(either.check("node-c", c, cert, NOW)).isEqualTo(Verdict.ADMITTED);
        assertThat(either.check("node-a", a, null, NOW)).isEqualTo(Verdict.ADMITTED);
        assertThat(either.check("node-c", c, null, NOW)).isEqualTo(Verdict.UNKNOWN_NAME);
    }

    @Test
    void theLinkKeyIsBoundToTheIdentityKey() {
        NodeKeys k = NodeKeys.generate();
        NodeKeys other = NodeKeys.generate();
        assertThat(NodeKeys.verifyLinkKeyBinding(k.identityPublic(), k.linkPublic(), k.linkKeyBinding())).isTrue();
        assertThat(NodeKeys.verifyLinkKeyBinding(k.identityPublic(), other.linkPublic(), k.linkKeyBinding())).isFalse();
        assertThat(NodeKeys.verifyLinkKeyBinding(other.identityPublic(), k.linkPublic(), k.linkKeyBinding())).isFalse();
        assertThat(k.toString()).doesNotContain(java.util.Base64.getEncoder().encodeToString(k.identityPrivate()));
    }
}
