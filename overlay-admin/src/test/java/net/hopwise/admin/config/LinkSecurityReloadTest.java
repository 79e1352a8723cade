package net.hopwise.admin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.RevocationList;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.security.reload.SecurityFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's node re-reads its security files as NodeDaemon does: the same lines for a renewed,
 * refused or unchanged certificate and revocation list, the revocation list applied at start, and a
 * trusted-keys list without the node refused. Checks are driven directly (what the timer and SIGHUP
 * run), with each change made visible by moving the file's modification time on: nothing waits.
 */
class LinkSecurityReloadTest {
    private static final byte[] AUTHORITY = Crypto.newEd25519Private();
    private static final String AUTHORITY_KEY = TrustedKeys.format(Crypto.ed25519Public(AUTHORITY));
    private static final NodeKeys A = NodeKeys.generate();

    @TempDir
    Path dir;

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final long now = System.currentTimeMillis() / 1000;
    private long touches;
    private OverlayNode node;
    private LinkSecurityReload reload;

    @AfterEach
    void stop() {
        if (reload != null) {
            reload.close();
        }
        if (node != null) {
            node.stop();
        }
    }

    private void replace(Path file, byte[] bytes) throws Exception {
        Files.write(file, bytes);
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 1000 * ++touches));
    }

    private NodeCertificate certificate(long serial) {
        return NodeCertificate.sign(AUTHORITY, "a", A.identityPublic(), now - 60, now + 3600 * serial, serial);
    }

    /** Starts node a from {@code p} as the service's configuration does, then its reload. */
    private void start(LinkSecurityProperties p) throws Exception {
        node = OverlayNode.start(NodeConfig.builder("a").loopback(0)
                .module(new SecurityModule(LinkSecuritySettings.toSecurityConfig(p, "a"))).build());
        reload = LinkSecurityReload.start(p, node, (level, line) -> logged.add(level + " " + line), false);
        reload.started().get(10, TimeUnit.SECONDS);
    }

    private List<String> since(int mark) {
        return List.copyOf(logged.subList(mark, logged.size()));
    }

    private static String until(long notAfter) {
        return "valid until " + Instant.ofEpochSecond(notAfter);
    }

    @Test
    void aCertificateAndARevocationListAreRenewedRefusedAndRereadAsTheDaemonDoes() throws Exception {
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), A);
        Path cert = dir.resolve("a.cert");
        Files.write(cert, certificate(1).encode());
        Path revoked = dir.resolve("revoked");
        Files.write(revoked, RevocationList.sign(AUTHORITY, 5, Set.of(99L), List.of()).encode());
        LinkSecurityProperties p = new LinkSecurityProperties();
        p.setKeyFile(dir.resolve("a.key").toString());
        p.setAuthorityKeys(List.of(AUTHORITY_KEY));
        p.setCertificate(cert.toString());
        p.setRevocations(revoked.toString());
        start(p);
        assertThat(reload.watched()).containsExactly(cert, revoked);
        assertThat(reload.checkInterval()).isEqualTo(SecurityFiles.DEFAULT_CHECK_INTERVAL);
        assertThat(logged).containsExactly("INFO revocation list " + revoked + " version 5 applied and flooded: 1"
                + " certificate serials and 0 keys revoked; no link cut off");

        int mark = logged.size();
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(since(mark)).as("nothing changed, nothing read").isEmpty();

        replace(cert, "half a certificate".getBytes(StandardCharsets.US_ASCII));
        replace(revoked, RevocationList.sign(AUTHORITY, 4, Set.of(7L), List.of()).encode());
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(since(mark)).hasSize(2);
        assertThat(since(mark).get(0)).isEqualTo("WARNING certificate " + cert + " refused, the node keeps its"
                + " certificate (serial 1, " + until(now + 3600) + "): it is not a hopwise node certificate");
        assertThat(since(mark).get(1)).startsWith("WARNING revocation list " + revoked + " refused, the revocations"
                + " already applied stay: ").endsWith(" is older than version 5, applied here already");
        mark = logged.size();
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(since(mark)).as("a bad file is reported once, not at every check").isEmpty();

        replace(cert, certificate(2).encode());
        replace(revoked, RevocationList.sign(AUTHORITY, 6, Set.of(99L, 7L), List.of()).encode());
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(since(mark)).containsExactly(
                "INFO certificate " + cert + " renewed: serial 2, " + until(now + 7200)
                        + "; new handshakes and the next link-state version carry it",
                "INFO revocation list " + revoked + " version 6 applied and flooded: 2 certificate serials and 0 keys"
                        + " revoked; no link cut off");

        mark = logged.size();
        reload.reloadAll().get(10, TimeUnit.SECONDS);
        assertThat(since(mark)).as("SIGHUP re-reads unchanged files").containsExactly(
                "INFO certificate " + cert + " unchanged (serial 2)",
                "INFO revocation list " + revoked + " unchanged (version 6)");
    }

    @Test
    void aTrustedKeysListWithoutThisNodeIsRefusedAndTheIntervalIsASetting() throws Exception {
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), A);
        Path trusted = dir.resolve("trusted-keys");
        Files.writeString(trusted, TrustedKeys.line("a", A.identityPublic()) + "\n");
        LinkSecurityProperties p = new LinkSecurityProperties();
        p.setKeyFile(dir.resolve("a.key").toString());
        p.setTrustedKeys(trusted.toString());
        p.setReloadInterval(Duration.ZERO);
        start(p);
        assertThat(reload.watched()).containsExactly(trusted);
        assertThat(reload.checkInterval()).isZero();

        replace(trusted, (TrustedKeys.line("b", NodeKeys.generate().identityPublic()) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(logged).singleElement().asString().startsWith("WARNING trusted-keys file " + trusted
                + " refused, the node keeps admitting by the list it had: it does not list a with this node's key");

        int mark = logged.size();
        replace(trusted, (TrustedKeys.line("a", A.identityPublic()) + "\n").getBytes(StandardCharsets.UTF_8));
        reload.check().get(10, TimeUnit.SECONDS);
        assertThat(since(mark)).containsExactly("INFO trusted-keys file " + trusted
                + " applied: 1 names admitted; no link cut off");
    }

    @Test
    void anInsecureNodeOrTheDemoHasNothingToReread() {
        LinkSecurityProperties p = new LinkSecurityProperties();
        p.setInsecure(true);
        try (LinkSecurityReload none = LinkSecurityReload.start(p, null, (level, line) -> logged.add(line), true)) {
            assertThat(none.watched()).isEmpty();
            assertThat(none.check()).isCompleted();
        }
        p.setReloadInterval(Duration.ofSeconds(-1));
        p.setInsecure(false);
        p.setKeyFile("a.key");
        assertThatThrownBy(() -> LinkSecurityReload.start(p, null, (level, line) -> logged.add(line), true))
                .isInstanceOf(InvalidSettingsException.class).hasMessageContaining(
                        "hopwise.link-security.reload-interval: PT-1S is not 0 (only on SIGHUP) or 1 s to 24 h");
        assertThat(logged).isEmpty();
    }
}
