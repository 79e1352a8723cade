package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeDaemon;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.security.CipherSuite;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.SecuritySetup;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.trace.TraceModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's link security: keys from files, a node without keys refused unless the operator chose
 * unauthenticated links, the key tool as a command of the daemon, and a trace across secured links.
 */
class DaemonSecurityTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return NodeDaemon.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
    }

    /** Key files for {@code names} and a trusted-keys file listing them all. */
    private Path keysFor(String... names) throws Exception {
        StringBuilder trusted = new StringBuilder("# the overlay's nodes\n");
        for (String name : names) {
            NodeKeys keys = NodeKeys.generate();
            KeyFiles.writeNodeKeys(dir.resolve(name + ".key"), keys);
            trusted.append(TrustedKeys.line(name, keys.identityPublic())).append('\n');
        }
        Path file = dir.resolve("trusted-keys");
        Files.writeString(file, trusted);
        return file;
    }

    @Test
    void aNodeWithoutKeysIsRefusedUnlessUnauthenticatedLinksAreChosenExplicitly() throws Exception {
        assertThatThrownBy(() -> DaemonArguments.parse(List.of("--name", "a")))
                .isInstanceOf(SetupException.class)
                .hasMessageContaining("links need keys").hasMessageContaining("--insecure")
                .hasMessageContaining("keytool genkey node");
        DaemonOptions insecure = DaemonArguments.parse(List.of("--name", "a", "--insecure"));
        assertThat(insecure.security()).isNull();
        assertThat(insecure.nodeConfig(null).modules()).extracting(m -> m.name()).containsExactly("trace");
    }

    @Test
    void keysAndATrustedListInstallLinkSecurityNextToTheSocket() throws Exception {
        Path trusted = keysFor("a", "b");
        DaemonOptions o = DaemonArguments.parse(List.of("--name", "a", "--key", dir.resolve("a.key").toString(),
                "--trusted-keys", trusted.toString(), "--cipher", "aes-gcm"));
        assertThat(o.security()).isNotNull();
        assertThat(o.security().cipherSuite()).isEqualTo(CipherSuite.AES_GCM);
        assertThat(o.security().keys().identityPublic())
                .isEqualTo(KeyFiles.readNodeKeys(dir.resolve("a.key")).identityPublic());
        assertThat(o.nodeConfig(null).modules()).extracting(m -> m.name()).containsExactly("security", "trace");
    }

    @Test
    void halfConfiguredSecurityIsRefusedInOneLineSayingWhatIsWrong() throws Exception {
        Path trusted = keysFor("a", "b");
        String aKey = dir.resolve("a.key").toString();
        assertRefused(List.of("--name", "a", "--insecure", "--key", aKey), "--insecure runs without keys");
        assertRefused(List.of("--name", "a", "--trusted-keys", trusted.toString()), "--key FILE is needed");
        assertRefused(List.of("--name", "a", "--key", aKey), "a trusted-keys file or an authority");
        assertRefused(List.of("--name", "c", "--key", aKey, "--trusted-keys", trusted.toString()),
                "does not list c with the key of " + aKey, "(add the line: c ed25519:");
        assertRefused(List.of("--name", "a", "--key", aKey, "--trusted-keys", dir.resolve("nowhere").toString()),
                "does not exist");
        assertRefused(List.of("--name", "a", "--key", aKey, "--trusted-keys", trusted.toString(), "--cipher", "rot13"),
                "--cipher 'rot13': aes-gcm or chacha-poly");
        Files.setPosixFilePermissions(dir.resolve("b.key"), PosixFilePermissions.fromString("rw-r--r--"));
        assertRefused(List.of("--name", "b", "--key", dir.resolve("b.key").toString(), "--trusted-keys",
                trusted.toString()), "chmod 600");
    }

    @Test
    void underAnAuthorityTheNodesOwnCertificateIsCheckedAtStart() throws Exception {
        byte[] authority = Crypto.newEd25519Private();
        String authorityKey = TrustedKeys.format(Crypto.ed25519Public(authority));
        NodeKeys a = NodeKeys.generate();
        KeyFiles.writeNodeKeys(dir.resolve("a.key"), a);
        long now = System.currentTimeMillis() / 1000;
        Files.write(dir.resolve("a.cert"), NodeCertificate.sign(authority, "a", a.identityPublic(), now - 60,
                now + 86_400, 1).encode());
        Files.write(dir.resolve("b.cert"), NodeCertificate.sign(authority, "b", a.identityPublic(), now - 60,
                now + 86_400, 2).encode());
        Files.write(dir.resolve("old.cert"), NodeCertificate.sign(authority, "a", a.identityPublic(), now - 7200,
                now - 3600, 3).encode());
        String key = dir.resolve("a.key").toString();

        DaemonOptions o = DaemonArguments.parse(List.of("--name", "a", "--key", key, "--authority", authorityKey,
                "--certificate", dir.resolve("a.cert").toString()));
        assertThat(o.security().certificate().name()).isEqualTo("a");
        assertRefused(List.of("--name", "a", "--key", key, "--authority", authorityKey, "--certificate",
                dir.resolve("b.cert").toString()), "does not admit a", "certificate mismatch");
        assertRefused(List.of("--name", "a", "--key", key, "--authority", authorityKey, "--certificate",
                dir.resolve("old.cert").toString()), "expired");
        assertRefused(List.of("--name", "a", "--key", key, "--authority", authorityKey), "needs its own certificate");
        assertRefused(List.of("--name", "a", "--key", key, "--authority", "ed25519:nope", "--certificate",
                dir.resolve("a.cert").toString()), "authority key:");
    }

    private static void assertRefused(List<String> args, String... fragments) {
        assertThatThrownBy(() -> DaemonArguments.parse(args)).as(String.join(" ", args))
                .isInstanceOf(SetupException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(fragments).doesNotContain("\n"));
    }

    @Test
    void theKeyToolIsACommandOfTheDaemon() throws Exception {
        Path key = dir.resolve("n.key");
        assertThat(run("keytool", "genkey", "node", key.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("public key  ed25519:", "fingerprint ");
        assertThat(Files.getPosixFilePermissions(key)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        out.reset();
        assertThat(run("keytool", "pubkey", key.toString(), "n")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).trim())
                .isEqualTo(TrustedKeys.line("n", KeyFiles.readNodeKeys(key).identityPublic()));
    }

    @Test
    void aTraceCrossesLinksTheDaemonAuthenticatedAndEncrypted() throws Exception {
        Path trusted = keysFor("a", "b", "c");
        int aPort = freePort();
        List<OverlayNode> others = new ArrayList<>();
        try {
            OverlayNode b = OverlayNode.start(secured("b", trusted).neighbour(NeighbourConfig.parse("a@127.0.0.1:" + aPort))
                    .build());
            others.add(b);
            OverlayNode c = OverlayNode.start(secured("c", trusted)
                    .neighbour(NeighbourConfig.parse("b@127.0.0.1:" + b.localAddress().getPort())).build());
            others.add(c);
            b.addNeighbour(NeighbourConfig.parse("c@127.0.0.1:" + c.localAddress().getPort()));

            int code = run("--name", "a", "--bind", "127.0.0.1:" + aPort, "--stats-interval", "0",
                    "--key", dir.resolve("a.key").toString(), "--trusted-keys", trusted.toString(),
                    "--neighbour", "b@127.0.0.1:" + b.localAddress().getPort(), "--trace", "c", "--metric", "hops");
            assertThat(code).as("exit code; stdout %s, stderr %s", out, err).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("trace from a to c under HOPS: reached in 2 hops");
            List<net.hopwise.overlay.security.LinkSecurity.PeerStatus> links = b.module(SecureLinks.class).status().get();
            assertThat(links).filteredOn(l -> l.name().equals("a")).singleElement()
                    .satisfies(l -> assertThat(l.handshakes()).isPositive());
        } finally {
            others.forEach(OverlayNode::stop);
        }
    }

    private NodeConfig.Builder secured(String name, Path trusted) {
        return NodeConfig.builder(name).loopback(0)
                .module(new SecurityModule(SecuritySetup.trustedKeys(dir.resolve(name + ".key"), trusted).load(name)))
                .module(new TraceModule());
    }

    private static int freePort() throws Exception {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
