package net.hopwise.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * A copy of the checkout as a fresh clone has it (sources and wrapper, no .git, no build output), for
 * running documented commands where packaging cannot rewrite jars the running build uses, except that
 * the compiled classes of the modules this build has already finished come along.
 *
 * <p>Why those: the documented commands' first Maven run in the copy compiled every module from scratch,
 * about a minute of the suite's critical path on two cores, and compiling the same sources with the
 * same compiler is what the suite's own build has just proved. The copied classes keep their times, and
 * Maven's compiler plugin recompiles a module whose sources are newer or whose source list differs from
 * the one recorded in its {@code maven-status} (rewritten here to the copy's paths), so the copy builds as
 * a developer's checkout does after a build. Only modules this module depends on are taken: the reactor
 * has finished them before this module's tests run, where a module building beside it (with -T) may be
 * halfway through writing its classes.
 */
final class CheckoutCopy {
    /** overlay-examples and what it depends on; their compilation is complete when its tests run. */
    private static final List<String> FINISHED_MODULES = List.of("overlay-core", "overlay-multicast", "overlay-examples");
    private static final List<String> BUILD_OUTPUT = List.of("classes", "test-classes", "generated-sources",
            "generated-test-sources", "maven-status");

    private CheckoutCopy() {
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.filter(p -> {
                for (Path part : from.relativize(p)) {
                    String n = part.toString();
                    if (n.equals("target") || n.equals(".git") || n.equals(".jqwik-database")) {
                        return false;
                    }
                }
                return true;
            }).forEach(p -> copyOne(from, to, p));
        }
        for (String module : FINISHED_MODULES) {
            for (String output : BUILD_OUTPUT) {
                Path dir = from.resolve(module).resolve("target").resolve(output);
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(dir)) {
                    files.forEach(p -> copyOne(from, to, p));
                }
            }
            rewriteRecordedPaths(from, to, to.resolve(module).resolve("target").resolve("maven-status"));
        }
    }

    /** The compiler plugin records each source by its absolute path: in the copy they are the copy's. */
    private static void rewriteRecordedPaths(Path from, Path to, Path status) throws IOException {
        if (!Files.isDirectory(status)) {
            return;
        }
        try (Stream<Path> files = Files.walk(status)) {
            for (Path lst : files.filter(p -> p.toString().endsWith(".lst")).toList()) {
                var time = Files.getLastModifiedTime(lst);
                Files.writeString(lst, Files.readString(lst).replace(from.toString() + "/", to.toString() + "/"));
                Files.setLastModifiedTime(lst, time);
            }
        }
    }

    private static void copyOne(Path from, Path to, Path p) {
        try {
            Path dest = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(dest);
            } else {
                Files.createDirectories(dest.getParent());
                Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
