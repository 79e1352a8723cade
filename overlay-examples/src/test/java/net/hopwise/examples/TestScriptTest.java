package net.hopwise.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command on a machine where it cannot install what the tests need: no Chromium, no
 * SIP tools, not root and no sudo or apt-get. It must name what to install and stop before Maven
 * starts, not fail deep inside a test.
 */
class TestScriptTest {
    @Test
    void withoutTheProgramsAndWithoutRootItSaysWhatToInstallAndStops(@TempDir Path bin) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("mvnw")) || !Files.isDirectory(root.resolve("overlay-core"))) {
            root = root.getParent();
        }
        // A PATH with only what the script itself runs, a JDK included: no chromium, chromedriver, sipp,
        // baresip, sudo or apt-get; and an `id` that says the user is not root.
        for (String tool : List.of("bash", "dirname", "sed", "env")) {
            Path real = which(tool);
            assumeTrue(real != null, tool + " not found");
            Files.createSymbolicLink(bin.resolve(tool), real);
        }
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        Path id = bin.resolve("id");
        Files.writeString(id, "#!" + which("bash") + "\necho 1000\n");
        id.toFile().setExecutable(true);

        ProcessBuilder pb = new ProcessBuilder(which("bash").toString(), root.resolve("test").toString())
                .directory(root.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", bin.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the script stops on its own").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isEqualTo(2);
        assertThat(out).contains("not on PATH: chromium chromedriver sipp baresip")
                .contains("sudo apt-get install chromium chromium-driver sip-tester baresip-core")
                .doesNotContain("[INFO]");
    }

    private static Path which(String tool) throws IOException {
        for (String dir : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate.toRealPath();
            }
        }
        return null;
    }
}
