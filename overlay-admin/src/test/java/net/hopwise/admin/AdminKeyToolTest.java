package net.hopwise.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import net.hopwise.overlay.security.KeyFiles;
import net.hopwise.overlay.security.TrustedKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin jar's key tool: keys for the service's node without starting the service. */
class AdminKeyToolTest {
    @Test
    void keytoolMakesANodeKeyAndItsTrustedKeysLineInsteadOfStartingTheService(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        Path key = dir.resolve("a.key");
        assertThat(AdminApplication.command(new String[] {"keytool", "genkey", "node", key.toString()}, o, o)).isZero();
        assertThat(Files.getPosixFilePermissions(key)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        out.reset();
        assertThat(AdminApplication.command(new String[] {"keytool", "pubkey", key.toString(), "a"}, o, o)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).trim())
                .isEqualTo(TrustedKeys.line("a", KeyFiles.readNodeKeys(key).identityPublic()));
        assertThat(AdminApplication.command(new String[] {"--hopwise.node.name=a"}, o, o)).as("starts the service")
                .isNull();
        assertThat(AdminApplication.command(new String[] {"keytool", "genkey", "node", key.toString()}, o, o))
                .as("never overwrites a key").isEqualTo(1);
    }

    @Test
    void keytoolWritesAnAuthoritySignedRevocationList(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        Path authority = dir.resolve("authority.key");
        Path list = dir.resolve("revoked.list");
        assertThat(AdminApplication.command(new String[] {"keytool", "genkey", "authority", authority.toString()}, o, o))
                .isZero();
        assertThat(AdminApplication.command(new String[] {"keytool", "revoke", "--authority", authority.toString(),
                "--out", list.toString(), "--serial", "7", "--fresh", "--version", "1"}, o, o)).isZero();
        assertThat(net.hopwise.overlay.security.RevocationList.decode(Files.readAllBytes(list)).orElseThrow().serials())
                .containsExactly(7L);
        out.reset();
        assertThat(AdminApplication.command(new String[] {"keytool", "revoke", "--serial", "7"}, o, o)).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: keytool revoke");
    }
}
