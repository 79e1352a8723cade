package net.hopwise.overlay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import net.hopwise.overlay.NodeDaemon;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.RevocationList;
import net.hopwise.overlay.security.TrustedKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code keytool revoke} as a command of the daemon. */
class RevokeCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        return NodeDaemon.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ByteArrayInputStream(new byte[0]));
    }

    private static RevocationList read(Path file) throws Exception {
        return RevocationList.decode(Files.readAllBytes(file)).orElseThrow();
    }

    @Test
    void revokeSignsAListAndExtendsItRatherThanDroppingEarlierRevocations() throws Exception {
        byte[] authority = Crypto.newEd25519Private();
        Path authorityFile = dir.resolve("authority.key");
        KeyFiles.writeAuthorityKey(authorityFile, authority);
        NodeKeys b = NodeKeys.generate();
        NodeKeys c = NodeKeys.generate();
        Path bKey = dir.resolve("b.key");
        KeyFiles.writeNodeKeys(bKey, b);
        Path cCert = dir.resolve("c.cert");
        Files.write(cCert, NodeCertificate.sign(authority, "c", c.identityPublic(), 0, 4_000_000_000L, 42).encode());
        Path list = dir.resolve("revoked");

        assertThat(run("keytool", "revoke", "--authority", authorityFile.toString(), "--out", list.toString(),
                "--serial", "3,4", "--certificate", cCert.toString(), "--key", bKey.toString(), "--version", "10"))
                .as("stderr %s", err).isZero();
        RevocationList first = read(list);
        assertThat(first.signatureValid()).isTrue();
        assertThat(first.authorityKey()).isEqualTo(Crypto.ed25519Public(authority));
        assertThat(first.version()).isEqualTo(10);
        assertThat(first.serials()).containsExactlyInAnyOrder(3L, 4L, 42L);
        assertThat(first.keys()).singleElement().isEqualTo(b.identityPublic());
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("wrote revocation list " + list + ": version 10,"
                + " 3 certificate serials, 1 keys,");

        assertThat(run("keytool", "revoke", "--authority", authorityFile.toString(), "--out", list.toString(),
                "--key", TrustedKeys.format(c.identityPublic()))).as("stderr %s", err).isZero();
        RevocationList second = read(list);
        assertThat(second.version()).as("the current time, above the list it extends").isGreaterThan(10);
        assertThat(second.serials()).containsExactlyInAnyOrder(3L, 4L, 42L);
        assertThat(second.keys()).hasSize(2);

        assertThat(run("keytool", "revoke", "--authority", authorityFile.toString(), "--out", list.toString(),
                "--serial", "5", "--version", "10")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("is not above version " + second.version());
        assertThat(read(list)).isEqualTo(second);

        Path other = dir.resolve("other.key");
        KeyFiles.writeAuthorityKey(other, Crypto.newEd25519Private());
        assertThat(run("keytool", "revoke", "--authority", other.toString(), "--out", list.toString(), "--serial", "5"))
                .isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("a list of another authority");
        assertThat(run("keytool", "revoke", "--authority", other.toString(), "--out", list.toString(), "--serial", "5",
                "--fresh", "--version", "1")).isZero();
        assertThat(read(list).serials()).containsExactly(5L);
        assertThat(read(list).keys()).isEmpty();

        assertThat(run("keytool", "revoke", "--authority", authorityFile.toString(), "--serial", "x", "--out",
                list.toString(), "--fresh")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--serial 'x' is not a number");
        assertThat(run("keytool", "revoke", "--serial", "1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("needs --authority and --out", "usage: keytool revoke");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left")
                    .noneMatch(n -> n.endsWith(".tmp"));
        }
    }
}
