package net.hopwise.admin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.hopwise.overlay.security.CipherSuite;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.RevocationList;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.TrustedKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hopwise.link-security.*}: keys or an explicit insecure, every mistake named by its property. */
class LinkSecuritySettingsTest {
    @TempDir
    Path dir;

    private static List<String> problems(LinkSecurityProperties p, String name) {
        try {
            LinkSecuritySettings.toSecurityConfig(p, name);
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
        throw new AssertionError("accepted");
    }

    @Test
    void aNodeWithoutKeysNeedsInsecureSaidExplicitly() {
        LinkSecurityProperties p = new LinkSecurityProperties();
        assertThat(problems(p, "a")).singleElement().asString()
                .startsWith("hopwise.link-security.key-file: a node needs keys")
                .contains("hopwise.link-security.insecure=true");
        p.setInsecure(true);
        assertThat(LinkSecuritySettings.toSecurityConfig(p, "a")).isNull();
        p.setKeyFile("a.key");
        assertThat(problems(p, "a")).singleElement().asString().startsWith("hopwise.link-security.insecure:");
    }

    @Test
    void keyFilesAndATrustedListMakeTheNodesLinkSecurity() throws Exception {
        NodeKeys keys = NodeKeys.generate();
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), keys);
        Files.writeString(dir.resolve("trusted"), TrustedKeys.line("a", keys.identityPublic()) + "\n");
        LinkSecurityProperties p = new LinkSecurityProperties();
        p.setKeyFile(dir.resolve("a.key").toString());
        p.setTrustedKeys(dir.resolve("trusted").toString());
        p.setCipher("chacha-poly");
        var config = LinkSecuritySettings.toSecurityConfig(p, "a");
        assertThat(config.keys().identityPublic()).isEqualTo(keys.identityPublic());
        assertThat(config.cipherSuite()).isEqualTo(CipherSuite.CHACHA_POLY);

        p.setCipher("des");
        assertThat(problems(p, "a")).singleElement().asString().isEqualTo(
                "hopwise.link-security.cipher: 'des' is not aes-gcm or chacha-poly");
        p.setCipher(null);
        assertThat(problems(p, "b")).singleElement().asString().startsWith("hopwise.link-security.key-file ")
                .contains("does not list b");
        p.setTrustedKeys(null);
        assertThat(problems(p, "a")).singleElement().asString().contains("a trusted-keys file or an authority");
    }

    @Test
    void aRevocationListIsRefusedAtStartAsTheDaemonRefusesIt() throws Exception {
        byte[] authority = Crypto.newEd25519Private();
        NodeKeys keys = NodeKeys.generate();
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), keys);
        long now = System.currentTimeMillis() / 1000;
        Files.write(dir.resolve("a.cert"), NodeCertificate.sign(authority, "a", keys.identityPublic(), now - 60,
                now + 3600, 1).encode());
        Path foreign = dir.resolve("foreign.list");
        Files.write(foreign, RevocationList.sign(Crypto.newEd25519Private(), 1, java.util.Set.of(3L), List.of()).encode());
        LinkSecurityProperties p = new LinkSecurityProperties();
        p.setKeyFile(dir.resolve("a.key").toString());
        p.setAuthorityKeys(List.of(TrustedKeys.format(Crypto.ed25519Public(authority))));
        p.setCertificate(dir.resolve("a.cert").toString());
        p.setRevocations(foreign.toString());
        assertThat(problems(p, "a")).singleElement().asString().startsWith("hopwise.link-security.revocations "
                + foreign + ": it is signed by authority ").contains("not by one this node admits by");
        p.setRevocations(dir.resolve("none").toString());
        assertThat(problems(p, "a")).singleElement().asString().endsWith(": it does not exist");
        Files.write(dir.resolve("own.list"), RevocationList.sign(authority, 1, java.util.Set.of(3L), List.of()).encode());
        p.setRevocations(dir.resolve("own.list").toString());
        assertThat(LinkSecuritySettings.toSecurityConfig(p, "a")).isNotNull();
        assertThat(LinkSecuritySettings.toSecurityFiles(p).revocations()).isEqualTo(dir.resolve("own.list"));
        p.setReloadInterval(java.time.Duration.ofMillis(500));
        assertThat(problems(p, "a")).singleElement().asString().isEqualTo(
                "hopwise.link-security.reload-interval: PT0.5S is not 0 (only on SIGHUP) or 1 s to 24 h");

        LinkSecurityProperties trusted = new LinkSecurityProperties();
        trusted.setKeyFile(dir.resolve("a.key").toString());
        Files.writeString(dir.resolve("trusted"), TrustedKeys.line("a", keys.identityPublic()) + "\n");
        trusted.setTrustedKeys(dir.resolve("trusted").toString());
        trusted.setRevocations(dir.resolve("own.list").toString());
        assertThat(problems(trusted, "a")).singleElement().asString().contains("hopwise.link-security.revocations",
                "under a trusted-keys list, remove the node's line from that file instead");

        LinkSecurityProperties insecure = new LinkSecurityProperties();
        insecure.setInsecure(true);
        insecure.setReloadInterval(java.time.Duration.ofSeconds(5));
        assertThat(problems(insecure, "a")).singleElement().asString().isEqualTo(
                "hopwise.link-security.reload-interval: applies to a node with keys, not to one run insecure");
    }
}
