package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import net.hopwise.overlay.security.Admission.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyToolTest {
    private static final long NOW = 1_800_000_000L;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        return KeyTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), NOW);
    }

    @Test
    void keyFilesAreWrittenOwnerOnlyAndReadBack() throws Exception {
        NodeKeys keys = NodeKeys.generate();
        Path file = dir.resolve("node.key");
        KeyFiles.writeNodeKeys(file, keys);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        NodeKeys back = KeyFiles.readNodeKeys(file);
        assertThat(back.identityPublic()).isEqualTo(keys.identityPublic());
        assertThat(back.linkPublic()).isEqualTo(keys.linkPublic());
        assertThatThrownBy(() -> KeyFiles.writeNodeKeys(file, keys)).isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> KeyFiles.readAuthorityKey(file)).isInstanceOf(KeyFileException.class)
                .hasMessageContaining("not a authority key");
    }

    @Test
    void groupOrWorldReadablePrivateKeysAreRefused() throws Exception {
        Path file = dir.resolve("node.key");
        KeyFiles.writeNodeKeys(file, NodeKeys.generate());
        for (String mode : new String[] {"rw-r-----", "rw----r--", "rw-rw----", "rw-----w-"}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            assertThatThrownBy(() -> KeyFiles.readNodeKeys(file)).as(mode).isInstanceOf(KeyFileException.class)
                    .hasMessageContaining("refusing private key file").hasMessageContaining(mode)
                    .hasMessageContaining("chmod 600 " + file);
            assertThat(run("pubkey", file.toString())).isEqualTo(1);
            assertThat(err.toString()).contains("chmod 600");
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
        assertThat(KeyFiles.readNodeKeys(file).identityPublic()).hasSize(32);
    }

    @Test
    void malformedKeyFilesGiveClearErrors() throws Exception {
        Path file = dir.resolve("bad.key");
        Files.writeString(file, "kind: node\nidentity: AAAA\nlink: AAAA\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> KeyFiles.readNodeKeys(file)).isInstanceOf(KeyFileException.class)
                .hasMessageContaining("'identity' is not a base64 32-byte key");
        assertThatThrownBy(() -> KeyFiles.readNodeKeys(dir.resolve("missing.key")))
                .isInstanceOf(KeyFileException.class).hasMessageContaining("does not exist");
    }

    @Test
    void signsACertificateThatAdmitsTheNode() throws Exception {
        Path authority = dir.resolve("authority.key");
        Path node = dir.resolve("node.key");
        Path cert = dir.resolve("node.cert");
        assertThat(run("genkey", "authority", authority.toString())).isZero();
        assertThat(run("genkey", "node", node.toString())).isZero();
        assertThat(out.toString()).contains("public key  ed25519:").contains("fingerprint ");
        assertThat(run("genkey", "node", node.toString())).isEqualTo(1); // never overwrites

        assertThat(run("cert", "sign", "--authority", authority.toString(), "--name", "node-a", "--key",
                node.toString(), "--days", "30", "--serial", "9", "--out", cert.toString())).isZero();
        NodeCertificate c = NodeCertificate.decode(Files.readAllBytes(cert)).orElseThrow();
        NodeKeys keys = KeyFiles.readNodeKeys(node);
        byte[] authorityKey = Crypto.ed25519Public(KeyFiles.readAuthorityKey(authority));
        assertThat(c.notAfter() - c.notBefore()).isEqualTo(30 * 86_400L);
        assertThat(AuthorityAdmission.of(authorityKey).check("node-a", keys.identityPublic(), c, NOW + 1))
                .isEqualTo(Verdict.ADMITTED);

        assertThat(run("cert", "show", cert.toString())).isZero();
        assertThat(out.toString()).contains("name        node-a").contains("(valid now)").contains("(signature valid)")
                .contains("serial      9");
        assertThat(run("fingerprint", cert.toString())).isZero();
        String fromCert = out.toString().trim();
        assertThat(run("fingerprint", node.toString())).isZero();
        assertThat(out.toString().trim()).isEqualTo(fromCert).isEqualTo(keys.fingerprint());
        assertThat(run("pubkey", node.toString(), "node-a")).isZero();
        assertThat(out.toString().trim()).isEqualTo(TrustedKeys.line("node-a", keys.identityPublic()));

        Path trusted = dir.resolve("trusted");
        Files.writeString(trusted, "# the overlay\n" + out + "\n");
        assertThat(TrustedKeys.read(trusted).check("node-a", keys.identityPublic(), null, NOW)).isEqualTo(Verdict.ADMITTED);
    }

    @Test
    void misuseIsExplained() throws Exception {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("usage: keytool genkey");
        assertThat(run("cert", "sign", "--name", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("needs --authority");
        assertThat(run("cert", "show", dir.resolve("nothing").toString())).isEqualTo(1);
        Path junk = dir.resolve("junk");
        Files.writeString(junk, "junk");
        assertThat(run("cert", "show", junk.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("is not a hopwise node certificate");
        Files.writeString(dir.resolve("trusted"), "node-a ed25519:nope\n");
        assertThatThrownBy(() -> TrustedKeys.read(dir.resolve("trusted")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trusted:1:");
    }
}
