package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.AuthorityAdmission;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.RevocationList;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.security.reload.SecurityFiles;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon applies changed security files while it runs: a renewed certificate, a newer revocation
 * list, an edited trusted-keys list; a bad file is refused with one line and the node keeps what it
 * had. The checks are driven directly ({@link Daemon#checkSecurityFiles}, what the timer runs), and a
 * change is made visible by setting the file's modification time, so nothing waits for a clock.
 */
class DaemonReloadTest {
    private static final byte[] AUTHORITY = Crypto.newEd25519Private();
    private static final String AUTHORITY_KEY = TrustedKeys.format(Crypto.ed25519Public(AUTHORITY));
    private static final NodeKeys A = NodeKeys.generate();
    private static final NodeKeys B = NodeKeys.generate();

    @TempDir
    Path dir;

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final DaemonLog log = (level, line) -> logged.add(level + " " + line);
    private final List<AutoCloseable> open = new ArrayList<>();
    private final long now = System.currentTimeMillis() / 1000;
    private long touches;

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private static NodeCertificate certificate(byte[] authority, String name, NodeKeys keys, long notAfter, long serial) {
        long now = System.currentTimeMillis() / 1000;
        return NodeCertificate.sign(authority, name, keys.identityPublic(), now - 60, notAfter, serial);
    }

    /** Replaces {@code file} and moves its modification time on, so that a check sees the change. */
    private void replace(Path file, byte[] bytes) throws Exception {
        Files.write(file, bytes);
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 1000 * ++touches));
    }

    private Daemon start(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--name", "a", "--stats-interval", "0", "--reload-interval", "0",
                "--key", dir.resolve("a.key").toString()));
        all.addAll(List.of(args));
        if (!all.contains("--bind")) {
            all.addAll(List.of("--bind", "127.0.0.1:0"));
        }
        Daemon d = Daemon.start(DaemonArguments.parse(all), log);
        open.add(d);
        return d;
    }

    /** The lines logged since {@code from} about the files in {@link #dir}: links and routes log beside them. */
    private List<String> linesAfter(int from) {
        return logged.subList(from, logged.size()).stream().filter(l -> l.contains(dir.toString())).toList();
    }

    /**
     * Starts b as a's neighbour (the security module admits only configured neighbours), then daemon a
     * with {@code args}, and waits for their link.
     */
    private Daemon withPeerB(SecurityConfig b, String... args) throws Exception {
        int aPort;
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            aPort = s.getLocalPort();
        }
        OverlayNode node = OverlayNode.start(NodeConfig.builder("b").loopback(0)
                .neighbour(NeighbourConfig.parse("a@127.0.0.1:" + aPort)).module(new SecurityModule(b)).build());
        open.add(node);
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bind", "127.0.0.1:" + aPort, "--neighbour", "b@127.0.0.1:" + node.localAddress().getPort()));
        Daemon a = start(all.toArray(String[]::new));
        Eventually.await("link a-b up", () -> a.node().reachableNodes(RoutingMetric.HOPS).contains("b"));
        return a;
    }

    @Test
    void aRenewedCertificateIsTakenWithoutRestartAndABadOneIsRefusedWhileTheOldStays() throws Exception {
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), A);
        Path cert = dir.resolve("a.cert");
        Files.write(cert, certificate(AUTHORITY, "a", A, now + 3600, 1).encode());
        Daemon a = start("--authority", AUTHORITY_KEY, "--certificate", cert.toString());
        assertThat(a.reloadsSecurityFiles()).isTrue();

        int mark = logged.size();
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).as("nothing changed, nothing read").noneMatch(l -> l.contains("certificate"));

        replace(cert, "half a certificate".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).singleElement().asString().startsWith("WARNING certificate " + cert + " refused,")
                .contains("keeps its certificate (serial 1,", "is not a hopwise node certificate");

        mark = logged.size();
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).as("a bad file is reported once, not at every check").isEmpty();

        byte[] other = Crypto.newEd25519Private();
        replace(cert, certificate(other, "a", A, now + 7200, 2).encode());
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        replace(cert, certificate(AUTHORITY, "a", B, now + 7200, 3).encode());
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).hasSize(2).allMatch(l -> l.startsWith("WARNING certificate " + cert + " refused,")
                && l.contains("keeps its certificate (serial 1,"));

        mark = logged.size();
        Files.delete(cert);
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).singleElement().asString().contains("refused", "it does not exist");

        mark = logged.size();
        replace(cert, certificate(AUTHORITY, "a", A, now + 7200, 4).encode());
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).singleElement().asString().startsWith("INFO certificate " + cert + " renewed: serial 4,");

        mark = logged.size();
        a.reloadSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).as("SIGHUP re-reads an unchanged file").singleElement().asString()
                .isEqualTo("INFO certificate " + cert + " unchanged (serial 4)");
    }

    @Test
    void aRevocationListIsAppliedAtStartAndANewerOneCutsTheRevokedPeerOff() throws Exception {
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), A);
        Path cert = dir.resolve("a.cert");
        Files.write(cert, certificate(AUTHORITY, "a", A, now + 3600, 1).encode());
        Path revoked = dir.resolve("revoked");
        Files.write(revoked, RevocationList.sign(AUTHORITY, 5, Set.of(99L), List.of()).encode());
        SecurityConfig b = SecurityConfig.of("b", B, certificate(AUTHORITY, "b", B, now + 3600, 7),
                AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY)));
        Daemon a = withPeerB(b, "--authority", AUTHORITY_KEY, "--certificate", cert.toString(), "--revocations",
                revoked.toString());
        Eventually.await("the list applied at start in " + logged, () -> logged.contains("INFO revocation list " + revoked
                + " version 5 applied and flooded: 1 certificate serials and 0 keys revoked; no link cut off"));

        int mark = logged.size();
        replace(revoked, RevocationList.sign(AUTHORITY, 4, Set.of(7L), List.of()).encode());
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        replace(revoked, RevocationList.sign(Crypto.newEd25519Private(), 6, Set.of(7L), List.of()).encode());
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        byte[] altered = RevocationList.sign(AUTHORITY, 6, Set.of(7L), List.of()).encode();
        altered[altered.length - 1] ^= 1;
        replace(revoked, altered);
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).hasSize(3).allMatch(l -> l.startsWith("WARNING revocation list " + revoked
                + " refused, the revocations already applied stay: "));
        assertThat(String.join("\n", linesAfter(mark))).contains("older than version 5", "not by one this node admits by",
                "signature does not verify");
        assertThat(a.node().reachableNodes(RoutingMetric.HOPS)).contains("b");

        mark = logged.size();
        replace(revoked, RevocationList.sign(AUTHORITY, 6, Set.of(99L, 7L), List.of()).encode());
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).singleElement().asString().isEqualTo("INFO revocation list " + revoked
                + " version 6 applied and flooded: 2 certificate serials and 0 keys revoked; links cut off: b");
    }

    @Test
    void anEditedTrustedKeysListIsAppliedAndOneWithoutThisNodeIsRefused() throws Exception {
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), A);
        Path trusted = dir.resolve("trusted-keys");
        String both = TrustedKeys.line("a", A.identityPublic()) + "\n" + TrustedKeys.line("b", B.identityPublic()) + "\n";
        Files.writeString(trusted, both);
        Daemon a = withPeerB(SecurityConfig.of("b", B, null, TrustedKeys.read(trusted)), "--trusted-keys",
                trusted.toString());

        int mark = logged.size();
        replace(trusted, (TrustedKeys.line("b", B.identityPublic()) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        replace(trusted, "a ed25519:not-a-key\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).hasSize(2).allMatch(l -> l.startsWith("WARNING trusted-keys file " + trusted
                + " refused, the node keeps admitting by the list it had: "));
        assertThat(linesAfter(mark).get(0)).contains("does not list a with this node's key");
        assertThat(linesAfter(mark).get(1)).contains(trusted + ":1:");
        assertThat(a.node().reachableNodes(RoutingMetric.HOPS)).contains("b");

        mark = logged.size();
        replace(trusted, (TrustedKeys.line("a", A.identityPublic()) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        a.checkSecurityFiles().get(10, TimeUnit.SECONDS);
        assertThat(linesAfter(mark)).singleElement().asString().isEqualTo("INFO trusted-keys file " + trusted
                + " applied: 1 names admitted; links cut off: b");
    }

    @Test
    void revocationOptionsAreCheckedAtStart() throws Exception {
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), A);
        Path cert = dir.resolve("a.cert");
        Files.write(cert, certificate(AUTHORITY, "a", A, now + 3600, 1).encode());
        Path trusted = dir.resolve("trusted-keys");
        Files.writeString(trusted, TrustedKeys.line("a", A.identityPublic()) + "\n");
        Path list = dir.resolve("revoked");
        Files.write(list, RevocationList.sign(Crypto.newEd25519Private(), 1, Set.of(3L), List.of()).encode());
        String key = dir.resolve("a.key").toString();
        List<String> authority = List.of("--name", "a", "--key", key, "--authority", AUTHORITY_KEY, "--certificate",
                cert.toString());

        assertRefused(concat(authority, "--revocations", list.toString()), "--revocations " + list
                + ": it is signed by authority ", "not by one this node admits by");
        assertRefused(concat(authority, "--revocations", dir.resolve("none").toString()), "it does not exist");
        assertRefused(List.of("--name", "a", "--key", key, "--trusted-keys", trusted.toString(), "--revocations",
                list.toString()), "under a trusted-keys list, remove the node's line");
        assertRefused(List.of("--name", "a", "--insecure", "--reload-interval", "5s"), "not to one run --insecure");
        assertRefused(concat(authority, "--reload-interval", "soon"), "--reload-interval 'soon' is not a duration");
        assertThat(DaemonArguments.parse(authority).securityFiles().checkInterval())
                .isEqualTo(SecurityFiles.DEFAULT_CHECK_INTERVAL);
        assertThat(DaemonArguments.parse(concat(authority, "--reload-interval", "0")).securityFiles().checkInterval())
                .isZero();
        assertThat(DaemonArguments.parse(List.of("--name", "a", "--insecure")).securityFiles()).isNull();
    }

    private static List<String> concat(List<String> a, String... more) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(more));
        return all;
    }

    private static void assertRefused(List<String> args, String... fragments) {
        assertThatThrownBy(() -> DaemonArguments.parse(args)).as(String.join(" ", args))
                .isInstanceOf(SetupException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(fragments).doesNotContain("\n"));
    }
}
