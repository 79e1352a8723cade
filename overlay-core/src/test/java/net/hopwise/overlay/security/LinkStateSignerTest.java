package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.security.LinkStateSigner.Verdict;
import org.junit.jupiter.api.Test;

class LinkStateSignerTest {
    private static final long NOW = 1_800_000_000L;
    private final NodeKeys a = NodeKeys.generate();
    private final NodeKeys c = NodeKeys.generate();
    private final byte[] advert = "links: b=3 c=5".getBytes(StandardCharsets.US_ASCII);

    @Test
    void anAdmittedNodeCannotSignForAnother() {
        TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(a.identityPublic()), "c", List.of(c.identityPublic())));
        LinkStateSigner atA = new LinkStateSigner("a", a, trusted, 100);
        LinkStateSigner atB = new LinkStateSigner("b", NodeKeys.generate(), trusted, 100);
        LinkStateSigner atC = new LinkStateSigner("c", c, trusted, 100);
        byte[] sig = atA.sign(7, advert);
        assertThat(atB.verify("a", 7, advert, sig)).isEqualTo(Verdict.VALID);
        assertThat(atB.verify("a", 8, advert, sig)).isEqualTo(Verdict.BAD_SIGNATURE);
        byte[] changed = advert.clone();
        changed[8] ^= 1;
        assertThat(atB.verify("a", 7, changed, sig)).isEqualTo(Verdict.BAD_SIGNATURE);
        // c signs what claims to be a's advertisement: c's signature is not a's
        assertThat(atB.verify("a", 7, advert, atC.sign(7, advert))).isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(atB.verify("c", 7, advert, sig)).isEqualTo(Verdict.BAD_SIGNATURE);
        assertThat(atB.verify("z", 7, advert, sig)).isEqualTo(Verdict.UNKNOWN_ORIGIN);
        assertThat(atB.verify("a", 7, advert, new byte[3])).isEqualTo(Verdict.BAD_SIGNATURE);
    }

    @Test
    void aCopySeenAgainCostsNoVerification() {
        TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(NodeKeys.generate().identityPublic(), a.identityPublic())));
        LinkStateSigner atB = new LinkStateSigner("b", NodeKeys.generate(), trusted, 100);
        byte[] sig = new LinkStateSigner("a", a, trusted, 1).sign(7, advert);
        assertThat(atB.verify("a", 7, advert, sig)).isEqualTo(Verdict.VALID); // the second of two keys
        long v = atB.verifications();
        for (int i = 0; i < 10; i++) {
            assertThat(atB.verify("a", 7, advert, sig)).isEqualTo(Verdict.VALID);
        }
        assertThat(atB.verifications()).isEqualTo(v);
        assertThat(atB.cacheHits()).isEqualTo(10);
        atB.clear();
        assertThat(atB.verify("a", 7, advert, sig)).isEqualTo(Verdict.VALID);
        assertThat(atB.verifications()).isGreaterThan(v);
    }

    @Test
    void certificatesFloodedWithLinkStateNameTheKeysThatSign() {
        byte[] authority = Crypto.newEd25519Private();
        AuthorityAdmission admission = AuthorityAdmission.of(Crypto.ed25519Public(authority));
        CertificateDirectory directory = new CertificateDirectory(admission, 10);
        NodeCertificate certA = NodeCertificate.sign(authority, "a", a.identityPublic(), NOW - 1, NOW + 100, 1);
        assertThat(directory.learn(certA, NOW)).isTrue();
        assertThat(directory.learn(NodeCertificate.sign(Crypto.newEd25519Private(), "c", c.identityPublic(), NOW, NOW + 1, 2), NOW))
                .isFalse();
        LinkStateSigner atB = new LinkStateSigner("b", NodeKeys.generate(), directory, 100);
        byte[] sig = new LinkStateSigner("a", a, directory, 1).sign(1, advert);
        assertThat(atB.verify("a", 1, advert, sig)).isEqualTo(Verdict.VALID);
        assertThat(atB.verify("c", 1, advert, sig)).isEqualTo(Verdict.UNKNOWN_ORIGIN);
        directory.prune(new AuthorityAdmission(Set.of(Crypto.ed25519Public(authority)), Set.of(1L), Set.of()), NOW);
        assertThat(directory.keys("a")).isEmpty();
    }

    @Test
    void underAnAuthorityTheCertificateTravelsIsVerifiedOnceAndRevocationAndExpiryRefuseTheNextVersion() {
        byte[] authority = Crypto.newEd25519Private();
        AuthorityAdmission admission = AuthorityAdmission.of(Crypto.ed25519Public(authority));
        long[] clock = {NOW};
        NodeCertificate certA = NodeCertificate.sign(authority, "a", a.identityPublic(), NOW - 1, NOW + 100, 1);
        LinkStateSigner atA = LinkStateSigner.of(SecurityConfig.of("a", a, certA, admission).withWallClock(() -> NOW), 4);
        NodeKeys b = NodeKeys.generate();
        LinkStateSigner atB = LinkStateSigner.of(SecurityConfig.of("b", b,
                NodeCertificate.sign(authority, "b", b.identityPublic(), NOW - 1, NOW + 100, 2), admission)
                .withWallClock(() -> clock[0]), 16);
        assertThat(atA.canSign()).isTrue();
        assertThat(atA.maxSignatureBytes()).isEqualTo(LinkStateSigner.CERTIFIED_SIGNATURE_BYTES);
        byte[][] sigs = new byte[6][];
        for (int seq = 1; seq <= 5; seq++) {
            sigs[seq] = atA.sign(seq, advert);
            assertThat(sigs[seq]).hasSize(LinkStateSigner.CERTIFIED_SIGNATURE_BYTES);
            assertThat(atB.verify("a", seq, advert, sigs[seq])).isEqualTo(Verdict.VALID);
        }
        LinkStateSigner.Stats s = atB.stats();
        assertThat(s.verifications()).isEqualTo(5);
        assertThat(s.certificateVerifications()).as("a's certificate verified once").isEqualTo(1);
        assertThat(s.certificateCacheHits()).isEqualTo(4);
        assertThat(atB.verify("c", 1, advert, sigs[1])).as("a's certificate does not name c").isEqualTo(Verdict.NOT_ADMITTED);

        clock[0] = NOW + 101;
        assertThat(atB.verify("a", 1, advert, sigs[1])).as("a version verified before").isEqualTo(Verdict.VALID);
        assertThat(atB.verify("a", 6, advert, atA.sign(6, advert))).as("expired").isEqualTo(Verdict.NOT_ADMITTED);
        clock[0] = NOW;
        atB.updateAdmission(new AuthorityAdmission(Set.of(Crypto.ed25519Public(authority)), Set.of(1L), Set.of()));
        assertThat(atB.verify("a", 1, advert, sigs[1])).as("verified before the revocation").isEqualTo(Verdict.NOT_ADMITTED);
        assertThat(atB.verify("a", 7, advert, atA.sign(7, advert))).isEqualTo(Verdict.NOT_ADMITTED);
        assertThat(atB.stats().refused()).isEqualTo(4);
    }
}
