package net.hopwise.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The shell commands that README.md and docs/*.md tell a reader to type, read from the documents
 * themselves so that a test of them follows every edit: lines of fenced or indented code blocks, with
 * their backslash continuations, and inline code spans (which may wrap across lines in the source).
 */
record DocumentedCommands(Path root, List<Command> all) {
    /** One command as written, and where: "README.md:28". */
    record Command(String where, String text) {
        List<String> words() {
            List<String> words = new ArrayList<>();
            // Shell words: double-quoted parts stay one word (without their quotes), as the shell passes them.
            Matcher m = Pattern.compile("(?:[^\\s\"']+|\"[^\"]*\"|'[^']*')+").matcher(text);
            while (m.find()) {
                words.add(m.group().replace("\"", "").replace("'", ""));
            }
            return words;
        }

        boolean isMaven() {
            return text.startsWith("./mvnw ");
        }

        @Override
        public String toString() {
            return where + ": " + text;
        }
    }

    private static final Pattern FENCE = Pattern.compile("^(```|~~~)");
    private static final Pattern INLINE = Pattern.compile("`([^`]+)`");
    /**
     * What starts a command a reader runs from the top of the checkout; a class path given as a
     * placeholder ({@code java -cp <cp> ...}) is a pattern, not a command.
     */
    private static final Pattern COMMAND_START = Pattern.compile(
            "^(\\./mvnw|\\./test|java -jar|java (?:--?[\\w.=-]+ )*-cp (?!<)\\S+|mvn|mvn-locked|[\\w-]+/bench/\\S+\\.sh)( |$)");
    /** A shell variable set in a code block ({@code CP=a.jar:b.jar}), used by the commands after it. */
    private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Z][A-Z0-9_]*)=(\\S+)$");

    static DocumentedCommands read(Path root) {
        List<Path> documents = new ArrayList<>();
        documents.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Command> all = new ArrayList<>();
        for (Path document : documents) {
            try {
                all.addAll(parse(root.relativize(document).toString(), Files.readAllLines(document)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new DocumentedCommands(root, List.copyOf(all));
    }

    static List<Command> parse(String name, List<String> lines) {
        List<Command> found = new ArrayList<>();
        boolean fenced = false;
        Map<String, String> variables = new java.util.HashMap<>();
        StringBuilder prose = new StringBuilder();
        List<Integer> proseLines = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line.trim()).find()) {
                fenced = !fenced;
                continue;
            }
            boolean indented = !fenced && line.startsWith("    ") && COMMAND_START.matcher(line.trim()).find();
            if (fenced || indented) {
                String text = line.trim();
                int first = i;
                while (text.endsWith("\\") && i + 1 < lines.size()) {
                    text = text.substring(0, text.length() - 1).trim() + " " + lines.get(++i).trim();
                }
                Matcher assignment = ASSIGNMENT.matcher(text);
                if (assignment.matches()) {
                    variables.put(assignment.group(1), assignment.group(2));
                    continue;
                }
                for (Map.Entry<String, String> v : variables.entrySet()) {
                    text = text.replace("$" + v.getKey(), v.getValue());
                }
                if (COMMAND_START.matcher(text).find()) {
                    found.add(new Command(name + ":" + (first + 1), text));
                }
                continue;
            }
            prose.append(line).append('\n');
            proseLines.add(i + 1);
        }
        Matcher m = INLINE.matcher(prose);
        while (m.find()) {
            String text = m.group(1).replaceAll("\\s+", " ").trim();
            if (COMMAND_START.matcher(text).find()) {
                int line = proseLines.get((int) prose.substring(0, m.start()).chars().filter(c -> c == '\n').count());
                found.add(new Command(name + ":" + line, text));
            }
        }
        return found;
    }

    List<Command> maven() {
        return all.stream().filter(Command::isMaven).toList();
    }

    List<Command> javaJar() {
        return all.stream().filter(c -> c.text().startsWith("java -jar ")).toList();
    }

    /** {@code java [options] -cp PATH MAIN ...}, with the class path's variable expanded. */
    List<Command> javaClassPath() {
        return all.stream().filter(c -> c.text().startsWith("java ") && c.words().contains("-cp")).toList();
    }

    /** The main class a documented exec:java or exec:exec command runs, or null. */
    static String mainClass(Command c) {
        for (String w : c.words()) {
            if (w.startsWith("-Dexec.mainClass=")) {
                return w.substring("-Dexec.mainClass=".length());
            }
            if (w.startsWith("-Dexec.args=")) {
                Matcher m = Pattern.compile("%classpath (\\S+)").matcher(w);
                if (m.find()) {
                    return m.group(1);
                }
            }
        }
        return c.words().contains("exec:java") ? DemoOverlay.class.getName() : null;
    }

    /**
     * The command's Maven shape: everything but the program it runs and its arguments. Commands of one
     * shape differ only in what the already-built class path runs.
     */
    static List<String> shape(Command c) {
        return c.words().stream()
                .filter(w -> !w.startsWith("-Dexec.args=") && !w.startsWith("-Dexec.mainClass="))
                .toList();
    }
}
