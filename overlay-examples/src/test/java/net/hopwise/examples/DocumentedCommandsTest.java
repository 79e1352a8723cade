package net.hopwise.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.hopwise.examples.DocumentedCommands.Command;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command README.md and docs/*.md give works on a fresh clone. The commands are read from the
 * documents (never repeated here), checked for what a fresh machine lacks, and run in a cheap form in a
 * copy of this checkout ({@link CheckoutCopy}: packaging there cannot rewrite jars this build is using,
 * and the modules this build has finished come compiled): each Maven shape once, a program with --help
 * or a one-second run instead of a long benchmark, a service until it says it is ready. The README's
 * test command (the whole suite) and benchmark scripts are checked, not run. Over 400 lines because
 * the rules that pick what runs (shapes, cheap forms, which run proves another) are tested here beside
 * the run they decide, so that a rule cannot change without its test.
 */
class DocumentedCommandsTest {
    /** Cheap forms of the programs that have one; a shape with none of them runs the first of its kind. */
    private static final Map<String, String> CHEAP = Map.of(
            "net.hopwise.examples.bench.FoundationBenchmark", "--help",
            "net.hopwise.examples.sim.SimulatorCli", "--help",
            DemoOverlay.class.getName(), "--seconds 1",
            "net.hopwise.multicast.CostBenefitExperiment", "s1 --seconds 1 --seeds 1",
            "net.hopwise.overlay.security.SealedLinkBenchmark",
            "--rounds 1 --seconds 0.2 --warmup 0.2 --pings 200 --suites AES_GCM",
            "net.hopwise.voip.relay.FaultExperiment", "load --calls 1 --rate 1 --seconds 1",
            "net.hopwise.voip.relay.LossRecoveryExperiment", "--only chain --runs 1 --seconds 1 --calls 1");
    /** Word prefixes whose value a cheap run shrinks: a fuzz run of a million inputs becomes a thousand. */
    private static final Map<String, String> SHRINK = Map.of("-Dvoip.fuzz.count=", "1000");
    /** System properties the simulator's experiments read (`-Dlayered.floorpackets=4`), not Maven. */
    private static final Set<String> PROGRAM_PROPERTIES = Set.of("-Dlayered.");
    private static final Set<String> LATE_PHASES = Set.of("test-compile", "test", "package", "verify", "install");
    private static final String ADMIN_READY = "Hopwise admin ready";
    private static final String RELAY_LAUNCHER = "net.hopwise.voip.relay.RelayLauncher";

    private static Path root;
    private static DocumentedCommands docs;

    @BeforeAll
    static void readTheDocuments() {
        root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("mvnw")) || !Files.isDirectory(root.resolve("overlay-core"))) {
            root = root.getParent();
        }
        docs = DocumentedCommands.read(root);
    }

    @Test
    void theDocumentsGiveTheRunAndTestCommandsAndTheBenchmarks() {
        assertThat(docs.all()).extracting(Command::text)
                .contains("./test", "./mvnw -q -pl overlay-admin -am test-compile spring-boot:run")
                .anyMatch(t -> t.contains("SimulatorCli"));
        assertThat(docs.all()).hasSizeGreaterThan(20);
    }

    @Test
    void theParserJoinsContinuationsAndWrappedInlineCode() {
        List<Command> found = DocumentedCommands.parse("x.md", List.of(
                "Run `./mvnw -q -pl a", "package` first.", "```sh", "./mvnw -q \\", "   verify", "```",
                "    java -jar a.jar \\", "      --help", "and `not a command`."));
        assertThat(found).extracting(Command::text)
                .containsExactlyInAnyOrder("./mvnw -q -pl a package", "./mvnw -q verify", "java -jar a.jar --help");
        assertThat(found).extracting(Command::where).contains("x.md:1", "x.md:4", "x.md:7");
    }

    @Test
    void aClassPathSetInTheBlockIsExpandedAndAPlaceholderIsNoCommand() {
        List<Command> found = DocumentedCommands.parse("x.md", List.of(
                "```sh", "CP=a.jar:b.jar", "# a comment", "java --enable-native-access=ALL-UNNAMED -cp $CP x.Main \\",
                "   --name a", "```", "Then `java -cp <cp> x.Other --seeds 20`."));
        assertThat(found).extracting(Command::text)
                .containsExactly("java --enable-native-access=ALL-UNNAMED -cp a.jar:b.jar x.Main --name a");
    }

    @Test
    void aModulesWholeSuiteOrChosenTestsAreOnlyCompiled() {
        assertThat(cheapForm(new Command("x.md:1", "./mvnw -q -pl overlay-core verify")))
                .containsExactly("./mvnw", "-q", "-pl", "overlay-core", "test-compile");
        assertThat(cheapForm(new Command("x.md:2", "./mvnw -q -pl overlay-multicast -am test")))
                .containsExactly("./mvnw", "-q", "-pl", "overlay-multicast", "-am", "test-compile");
        assertThat(cheapForm(new Command("x.md:3",
                "./mvnw -q -pl overlay-voip -am test -Dtest=SippOverLossyOverlayTest -Dsurefire.failIfNoSpecifiedTests=false")))
                .containsExactly("./mvnw", "-q", "-pl", "overlay-voip", "-am", "test-compile");
        assertThat(cheapForm(new Command("x.md:4", "./mvnw -q -pl overlay-voip -am package -DskipTests")))
                .as("a build without tests runs as documented").contains("package", "-DskipTests");
    }

    @Test
    void experimentsDifferingOnlyInTheirOwnSettingsAreOneRun() {
        String table = "./mvnw -q -pl overlay-examples -am test-compile exec:java%s -Dexec.classpathScope=test"
                + " -Dexec.mainClass=net.hopwise.examples.layered.BenchmarkTable -Dexec.args=\"--seeds 20 --only B8\"";
        List<String> plain = cheapForm(new Command("x.md:1", String.format(table, "")));
        assertThat(cheapForm(new Command("x.md:2", String.format(table, " -Dlayered.floorpackets=3 -Dlayered.ownpackets=1.5"))))
                .isEqualTo(plain).noneMatch(w -> w.startsWith("-Dlayered."));
        assertThat(plain).contains("-Dexec.mainClass=" + DemoOverlay.class.getName());
    }

    @Test
    void noCommandNeedsWhatAFreshCloneLacks() throws IOException {
        assertThat(docs.all()).as("the wrapper, not a machine's Maven or build wrapper")
                .noneMatch(c -> c.text().startsWith("mvn ") || c.text().startsWith("mvn-locked"));
        assertThat(docs.maven()).as("offline needs a filled local repository")
                .noneMatch(c -> c.words().contains("-o") || c.words().contains("--offline"));
        for (Command c : docs.maven()) {
            List<String> w = c.words();
            int pl = w.indexOf("-pl");
            if (pl >= 0) {
                for (String module : w.get(pl + 1).split(",")) {
                    assertThat(root.resolve(module).resolve("pom.xml")).as(c.toString()).exists();
                }
            }
            boolean runsSomething = w.stream().anyMatch(g -> g.startsWith("exec:") || g.equals("spring-boot:run"));
            if (runsSomething && w.contains("-am")) {
                // Other modules' tests need overlay-core's test jar, which compile alone does not make.
                assertThat(w).as(c + ": a phase that builds the test jar").containsAnyElementsOf(LATE_PHASES);
            }
            for (String filter : w.stream().filter(g -> g.startsWith("-Dtest=")).toList()) {
                // Such a command is run compiled only (cheapForm): the test it names must exist to be run by the suite.
                String name = filter.substring("-Dtest=".length());
                String simple = name.substring(name.lastIndexOf('.') + 1) + ".java";
                List<String> modules = pl >= 0 ? List.of(w.get(pl + 1).split(",")) : List.of("overlay-examples");
                boolean exists = false;
                for (String m : modules) {
                    try (Stream<Path> files = Files.walk(root.resolve(m).resolve("src/test/java"))) {
                        exists |= files.anyMatch(f -> f.getFileName().toString().equals(simple));
                    }
                }
                assertThat(exists).as(c + ": the test it names exists").isTrue();
            }
            String main = DocumentedCommands.mainClass(c);
            if (main != null) {
                String file = main.replace('.', '/') + ".java";
                // The program lives in the module the command builds (-pl), which is overlay-examples by default.
                List<String> modules = pl >= 0 ? List.of(w.get(pl + 1).split(",")) : List.of("overlay-examples");
                assertThat(modules.stream().flatMap(m -> Stream.of("src/main/java/", "src/test/java/")
                        .map(dir -> root.resolve(m).resolve(dir + file))).anyMatch(Files::exists))
                        .as(c + ": " + main + " exists").isTrue();
            }
        }
        for (Command c : docs.all()) {
            if (c.text().matches("[\\w-]+/bench/.*")) {
                assertThat(Files.isExecutable(root.resolve(c.words().get(0)))).as(c.toString()).isTrue();
            }
        }
    }

    @Test
    void aReactorBuildOfMoreModulesOrFurtherProvesASmallerOne() {
        List<String> voipTests = List.of("./mvnw", "-q", "-pl", "overlay-voip", "-am", "test-compile");
        List<String> voipExec = List.of("./mvnw", "-q", "-pl", "overlay-voip", "-am", "test-compile", "exec:exec",
                "-Dexec.executable=java");
        List<String> adminJar = List.of("./mvnw", "-q", "-pl", "overlay-admin", "-am", "package", "-DskipTests");
        List<String> coreJar = List.of("./mvnw", "-q", "-pl", "overlay-core", "package", "-DskipTests");
        List<String> everything = List.of("./mvnw", "install", "-DskipTests", "-Dmaven.install.skip=true");
        List<String> voipJar = List.of("./mvnw", "-q", "-pl", "overlay-voip", "-am", "package", "-DskipTests");
        List<String> adminRun = List.of("./mvnw", "-q", "-pl", "overlay-admin", "-am", "test-compile", "spring-boot:run");
        assertThat(DocumentedCommandsTest.provedBy(voipTests, voipExec)).isTrue();
        assertThat(DocumentedCommandsTest.provedBy(voipExec, voipTests)).as("a plugin goal runs itself").isFalse();
        assertThat(DocumentedCommandsTest.provedBy(adminJar, everything)).isTrue();
        assertThat(DocumentedCommandsTest.provedBy(coreJar, everything)).as("-pl without -am").isFalse();
        assertThat(DocumentedCommandsTest.provedBy(adminJar, voipJar)).as("fewer modules").isFalse();
        assertThat(DocumentedCommandsTest.provedBy(voipJar, adminRun)).as("not as far").isFalse();
        assertThat(DocumentedCommandsTest.provedBy(voipJar, List.of("./mvnw", "-q", "-pl", "overlay-voip", "-am",
                "package"))).as("tests run there, not here").isFalse();
    }

    @Test
    void ciRunsExactlyTheReadmeTestCommand() throws IOException {
        String readme = Files.readString(root.resolve("README.md"));
        String testSection = readme.substring(readme.indexOf("## Test it"));
        Matcher fenced = Pattern.compile("```sh\\n(.*?)\\n```", Pattern.DOTALL).matcher(testSection);
        assertThat(fenced.find()).isTrue();
        String command = fenced.group(1).trim();
        List<String> ci = Files.readAllLines(root.resolve(".ci/run")).stream()
                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(ci).containsExactly("set -euo pipefail", "cd \"$(dirname \"$0\")/..\"", "exec " + command);
        assertThat(Files.isExecutable(root.resolve(command.split(" ")[0]))).isTrue();
    }

    @Test
    void everyDocumentedCommandRunsInACheapForm(@TempDir Path copy) throws Exception {
        CheckoutCopy.copy(root, copy);
        // One run per Maven shape: another program of the same shape differs only in its main class, whose
        // existence noCommandNeedsWhatAFreshCloneLacks checks.
        Map<List<String>, Command> shapes = new LinkedHashMap<>();
        for (Command c : docs.maven()) {
            if (c.words().equals(List.of("./mvnw", "verify"))) {
                continue; // the whole suite: this test is part of it
            }
            // A program with a cheap form stands for its shape, else the first of it.
            shapes.merge(DocumentedCommands.shape(c), c, (held, next) -> !hasCheapForm(held) && hasCheapForm(next)
                    ? next : held);
        }
        Map<List<String>, String> runs = new LinkedHashMap<>();
        shapes.values().forEach(c -> runs.putIfAbsent(cheapForm(c), c.where()));
        // Runs that prove each other (differing only in a property) both stay: neither is the larger.
        List<List<String>> all = List.copyOf(runs.keySet());
        runs.keySet().removeIf(run -> all.stream().anyMatch(o -> o != run && provedBy(run, o) && !provedBy(o, run)));
        for (Map.Entry<List<String>, String> run : runs.entrySet()) {
            List<String> command = withMavenSettings(run.getKey());
            if (command.contains("spring-boot:run")) {
                runUntilReady(copy, command, run.getValue());
            } else {
                runToSuccess(copy, command, run.getValue());
            }
        }
        String version = projectVersion();
        String daemonJar = "overlay-core/target/overlay-core-" + version + "-daemon.jar";
        // The key tool runs for real (it is cheap), before the services whose documented settings name its files.
        List<Command> jars = new ArrayList<>(docs.javaJar());
        jars.sort(java.util.Comparator.comparing(c -> !isKeyTool(c)));
        for (Command c : jars) {
            String jar = c.words().get(2).replace("<version>", version);
            assertThat(copy.resolve(jar)).as(c + ": built by a documented command").exists();
            // Netty loads its native transport: Java 24 and later print four lines of warning at the
            // start of a jar that does not enable native access (JEP 472), ahead of any error line.
            try (java.util.jar.JarFile built = new java.util.jar.JarFile(copy.resolve(jar).toFile())) {
                assertThat(built.getManifest().getMainAttributes().getValue("Enable-Native-Access"))
                        .as(c + ": the jar enables native access for its own libraries").isEqualTo("ALL-UNNAMED");
            }
            if (isKeyTool(c)) {
                List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", jar));
                command.addAll(c.words().subList(3, c.words().size()));
                runToSuccess(copy, command, c.where());
            } else if (jar.endsWith("-daemon.jar")) {
                runToSuccess(copy, List.of(javaBin(), "-jar", jar, "--help"), c.where());
            } else {
                trustedKeysFor(copy, c, daemonJar);
                List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", jar));
                command.addAll(c.words().subList(3, c.words().size()));
                command.add("--server.port=0");
                runUntilReady(copy, command, c.where());
            }
        }
        // A class path of built jars: every entry exists after the documented builds, and the program
        // starts from it alone with the documented options, on this machine's addresses and with keys of
        // its own, until it says it is ready: no dependency is missing from the jars the documents list.
        for (Command c : docs.javaClassPath()) {
            List<String> w = c.words();
            int cp = w.indexOf("-cp");
            for (String entry : w.get(cp + 1).split(":")) {
                assertThat(copy.resolve(entry)).as(c + ": built by a documented command").exists();
            }
            assertThat(w.get(cp + 2)).as(c + ": a program with a local form here").isEqualTo(RELAY_LAUNCHER);
            List<String> command = new ArrayList<>(List.of(javaBin()));
            command.addAll(w.subList(1, cp + 3));
            command.addAll(relayHere(copy, c, w.subList(cp + 3, w.size()), daemonJar));
            runUntilReady(copy, command, c.where(), "READY " + option(w, "--name") + " ");
        }
    }

    /**
     * A relay's documented options as they can run on this machine: its overlay and SIP sockets on
     * loopback, no neighbour (one at another site's address is not there, and the relay is ready only
     * once it has a route to every neighbour), and the key files it names made with the daemon's key
     * tool as docs/security.md tells an operator to. The rest (routes, names) as written.
     */
    private static List<String> relayHere(Path copy, Command c, List<String> options, String daemonJar)
            throws Exception {
        List<String> here = new ArrayList<>();
        String name = option(options, "--name");
        for (int i = 0; i < options.size(); i++) {
            String o = options.get(i);
            String value = i + 1 < options.size() ? options.get(i + 1) : null;
            switch (o) {
                case "--bind", "--sip" -> here.addAll(List.of(o, "127.0.0.1:0"));
                case "--neighbour" -> { }
                case "--key" -> {
                    keytool(copy, c, daemonJar, null, "genkey", "node", value);
                    here.addAll(List.of(o, value));
                }
                case "--trusted-keys" -> {
                    keytool(copy, c, daemonJar, copy.resolve(value), "pubkey", option(options, "--key"), name);
                    here.addAll(List.of(o, value));
                }
                default -> {
                    here.add(o);
                    continue;
                }
            }
            i++;
        }
        return here;
    }

    private static void keytool(Path copy, Command c, String daemonJar, Path output, String... arguments)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", daemonJar, "keytool"));
        command.addAll(List.of(arguments));
        ProcessBuilder b = new ProcessBuilder(command).directory(copy.toFile());
        if (output != null) {
            b.redirectOutput(output.toFile());
        }
        Process p = b.start();
        assertThat(p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0).as(c + ": " + command).isTrue();
    }

    private static String option(List<String> words, String name) {
        int i = words.indexOf(name);
        assertThat(i).as("%s in %s", name, words).isNotNegative();
        return words.get(i + 1);
    }

    /**
     * Whether running {@code other} proves that {@code run} works, so that it need not run as well: both
     * build their modules with the reactor (-am, or no -pl), and {@code other} goes as far on a superset
     * of those modules. A -pl run without -am is never proved so: it resolves its modules' dependencies
     * from the local repository, which a reactor build does not test.
     */
    static boolean provedBy(List<String> run, List<String> other) {
        List<String> goals = goalsOf(run);
        if (!run.contains("-pl") || !run.contains("-am") || goals.size() != 1 || phaseRank(goals.get(0)) < 0
                || run.stream().anyMatch(w -> w.startsWith("-P"))) {
            return false; // only a plain build of some modules (one phase, no plugin goal) is proved by another
        }
        String phase = goals.get(0);
        List<String> modules = List.of(run.get(run.indexOf("-pl") + 1).split(","));
        boolean wholeReactor = !other.contains("-pl");
        boolean sameModules = other.contains("-pl") && other.contains("-am")
                && List.of(other.get(other.indexOf("-pl") + 1).split(",")).containsAll(modules);
        List<String> otherGoals = goalsOf(other);
        boolean further = !otherGoals.isEmpty() && phaseRank(otherGoals.get(0)) >= phaseRank(phase);
        boolean sameSkips = run.contains("-DskipTests") == other.contains("-DskipTests")
                || phase.equals("test-compile");
        return (wholeReactor || sameModules) && further && sameSkips;
    }

    /** The phases and plugin goals of a Maven command, in order. */
    private static List<String> goalsOf(List<String> words) {
        List<String> goals = new ArrayList<>();
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            if (!w.startsWith("-") && !words.get(i - 1).equals("-pl") && !words.get(i - 1).equals("-P")) {
                goals.add(w);
            }
        }
        return goals;
    }

    private static int phaseRank(String phase) {
        return List.of("test-compile", "test", "package", "verify", "install", "deploy").indexOf(phase);
    }

    private static boolean hasCheapForm(Command c) {
        String main = DocumentedCommands.mainClass(c);
        return main != null && CHEAP.containsKey(main);
    }

    private static boolean isKeyTool(Command c) {
        return c.words().size() > 3 && c.words().get(3).equals("keytool");
    }

    /**
     * A service whose documented settings name a key file and a trusted-keys file gets the list the
     * documents tell an operator to write: the node's line, as the daemon's key tool prints it.
     */
    private static void trustedKeysFor(Path copy, Command c, String daemonJar) throws Exception {
        String key = setting(c, "--hopwise.link-security.key-file=");
        String trusted = setting(c, "--hopwise.link-security.trusted-keys=");
        String name = setting(c, "--hopwise.node.name=");
        if (key == null || trusted == null) {
            return;
        }
        assertThat(copy.resolve(key)).as(c + ": its key file is made by a documented keytool command").exists();
        keytool(copy, c, daemonJar, copy.resolve(trusted), "pubkey", key, name);
    }

    private static String setting(Command c, String prefix) {
        return c.words().stream().filter(w -> w.startsWith(prefix)).map(w -> w.substring(prefix.length()))
                .findFirst().orElse(null);
    }

    /** The documented command with its program swapped for a cheap one and long runs shrunk. */
    static List<String> cheapForm(Command c) {
        List<String> words = new ArrayList<>(DocumentedCommands.shape(c));
        words.replaceAll(w -> SHRINK.entrySet().stream().filter(e -> w.startsWith(e.getKey()))
                .map(e -> e.getKey() + e.getValue()).findFirst().orElse(w));
        String main = DocumentedCommands.mainClass(c);
        if (main != null) {
            boolean java = words.contains("exec:java");
            if (!CHEAP.containsKey(main)) {
                main = java ? DemoOverlay.class.getName() : "net.hopwise.examples.bench.FoundationBenchmark";
                // The stand-in does not read the documented program's own settings: runs differing only
                // in them are one run.
                words.removeIf(w -> PROGRAM_PROPERTIES.stream().anyMatch(w::startsWith));
            }
            if (java) {
                words.add("-Dexec.mainClass=" + main);
                words.add("-Dexec.args=" + CHEAP.get(main));
            } else {
                words.add("-Dexec.args=-cp %classpath " + main + " " + CHEAP.get(main));
            }
        }
        if ((words.contains("test") || words.contains("verify")) && !words.contains("-DskipTests")) {
            // The suite this test belongs to runs those tests, a module's whole suite (`-pl m verify`) or
            // the ones a -Dtest= names; the documented command's shape (module, -am) is what is left to
            // prove, which compiling it does.
            words.set(words.indexOf(words.contains("verify") ? "verify" : "test"), "test-compile");
            // What chose and sized the tests no longer matters: commands differing only there are one run.
            words.removeIf(w -> w.startsWith("-Dtest=") || w.startsWith("-Dsurefire.failIfNoSpecifiedTests=")
                    || SHRINK.keySet().stream().anyMatch(w::startsWith));
        }
        if (words.contains("package") || words.contains("install") || words.contains("deploy")) {
            // The jars, not their javadoc: the build's own verify already proves javadoc and sources.
            words.addAll(List.of("-Dmaven.javadoc.skip=true", "-Dmaven.source.skip=true"));
        }
        if (words.contains("install") || words.contains("deploy")) {
            // A test must not write the user's local repository; the consumer build proves what install puts there.
            words.add("-Dmaven.install.skip=true");
        }
        if (words.contains("spring-boot:run")) {
            words.add("-Dspring-boot.run.arguments=--server.port=0");
        }
        return words;
    }

    /** The local repository and online or offline mode of the build running this test. */
    private static List<String> withMavenSettings(List<String> words) {
        List<String> command = new ArrayList<>(words);
        command.addAll(1, List.of("-B", "-Dstyle.color=never"));
        String repo = System.getProperty("hopwise.maven.repo.local", "");
        if (!repo.isBlank() && !repo.contains("${")) {
            command.add(1, "-Dmaven.repo.local=" + repo);
        }
        // Deploy refuses offline mode even towards a directory; everything it needs is pinned and local anyway.
        if (System.getProperty("hopwise.maven.mode", "").equals("offline-true") && !words.contains("deploy")) {
            command.add(1, "-o");
        }
        return command;
    }

    private static void runToSuccess(Path dir, List<String> command, String where) throws Exception {
        Path log = Files.createTempFile("documented-command", ".log");
        Process p = start(dir, command, log);
        long start = System.nanoTime();
        boolean ended = p.waitFor(10, TimeUnit.MINUTES);
        System.out.printf("  ran for %.1f s%n", (System.nanoTime() - start) / 1e9);
        if (!ended) {
            destroyTree(p);
        }
        assertThat(ended && p.exitValue() == 0)
                .as("%s, as run: %s%n%s", where, String.join(" ", command), tail(log)).isTrue();
        Files.deleteIfExists(log);
    }

    /** Starts a service, waits until it logs that it is ready, and stops it. */
    private static void runUntilReady(Path dir, List<String> command, String where) throws Exception {
        runUntilReady(dir, command, where, ADMIN_READY);
    }

    /** Starts a program, waits until it prints {@code ready}, and stops it. */
    private static void runUntilReady(Path dir, List<String> command, String where, String ready) throws Exception {
        Path log = Files.createTempFile("documented-command", ".log");
        Process p = start(dir, command, log);
        long start = System.nanoTime();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (p.isAlive() && !Files.readString(log, StandardCharsets.ISO_8859_1).contains(ready)
                    && System.nanoTime() < deadline) {
                p.waitFor(200, TimeUnit.MILLISECONDS);
            }
            System.out.printf("  ready after %.1f s%n", (System.nanoTime() - start) / 1e9);
            assertThat(Files.readString(log, StandardCharsets.ISO_8859_1))
                    .as("%s, as run: %s%n%s", where, String.join(" ", command), tail(log)).contains(ready);
        } finally {
            destroyTree(p);
        }
        Files.deleteIfExists(log);
    }

    private static Process start(Path dir, List<String> command, Path log) throws IOException {
        System.out.println("documented command, cheap form: " + String.join(" ", command));
        return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
    }

    private static void destroyTree(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String projectVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>hopwise-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(root.resolve("pom.xml")));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }
}
