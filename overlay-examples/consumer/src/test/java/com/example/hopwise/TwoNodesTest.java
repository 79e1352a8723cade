package com.example.hopwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What a user of the published artifacts gets: two nodes that talk, a class path holding Hopwise's
 * declared dependencies and nothing of its tests or optional extras, and stable module names.
 */
class TwoNodesTest {
    private static final List<String> CLASS_PATH =
            Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));

    @Test
    void twoNodesExchangeAMessage() throws Exception {
        assertEquals("a: hello from a user", TwoNodes.exchange("hello from a user", Duration.ofSeconds(30)));
    }

    @Test
    void theClassPathHoldsNettyMicrometerAndBouncyCastleAndNothingElseOfHopwises() {
        Set<String> jars = CLASS_PATH.stream()
                .map(entry -> Path.of(entry).getFileName().toString())
                .filter(name -> name.endsWith(".jar"))
                .filter(name -> !name.startsWith("junit-") && !name.startsWith("opentest4j-")
                        && !name.startsWith("apiguardian-") && !name.startsWith("surefire")
                        && !name.startsWith("common-") && !name.startsWith("maven-"))
                .map(name -> name.replaceAll("-[0-9][^-]*(\\.Final)?(-SNAPSHOT)?(-linux-[a-z_0-9]+)?\\.jar$", ""))
                .collect(Collectors.toCollection(TreeSet::new));
        // What overlay-core and overlay-multicast declare, with what those bring (Micrometer's commons,
        // observation and histograms, Netty's resolver and epoll natives, Bouncy Castle for link state's
        // Ed25519 verification).
        assertEquals(new TreeSet<>(List.of(
                "overlay-core", "overlay-multicast",
                "netty-buffer", "netty-common", "netty-resolver", "netty-transport",
                "netty-transport-classes-epoll", "netty-transport-native-epoll", "netty-transport-native-unix-common",
                "bcprov-jdk18on",
                "micrometer-core", "micrometer-commons", "micrometer-observation", "HdrHistogram", "LatencyUtils")),
                jars, "class path " + CLASS_PATH);
    }

    @Test
    void neitherHopwisesTestClassesNorItsOptionalPrometheusRegistryComeAlong() {
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("net.hopwise.overlay.testing.LeakDetectionSessionListener"));
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("io.micrometer.prometheusmetrics.PrometheusMeterRegistry"));
    }

    @Test
    void eachHopwiseJarHasAStableModuleName() {
        Set<String> names = CLASS_PATH.stream()
                .filter(entry -> Path.of(entry).getFileName().toString().matches("overlay-.*\\.jar"))
                .map(entry -> ModuleFinder.of(Path.of(entry)).findAll().stream()
                        .map(ModuleReference::descriptor).map(d -> d.name()).findFirst().orElseThrow())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("net.hopwise.multicast", "net.hopwise.overlay")), names);
        assertTrue(CLASS_PATH.stream().noneMatch(entry -> entry.contains("tests.jar")), "no test jar: " + CLASS_PATH);
    }
}
