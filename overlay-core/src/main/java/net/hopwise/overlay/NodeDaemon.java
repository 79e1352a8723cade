package net.hopwise.overlay;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import net.hopwise.overlay.daemon.Daemon;
import net.hopwise.overlay.daemon.DaemonArguments;
import net.hopwise.overlay.daemon.DaemonLog;
import net.hopwise.overlay.daemon.DaemonOptions;
import net.hopwise.overlay.daemon.SetupException;
import net.hopwise.overlay.daemon.TraceCommand;

/**
 * Runs one overlay node as a process, for deployments without the admin service and for tests that
 * need nodes in separate JVMs. {@code ./mvnw -q -pl overlay-core package -DskipTests} builds it into
 * a jar with everything it needs:
 *
 * <pre>
 * java -jar overlay-core/target/overlay-core-0.1.0-SNAPSHOT-daemon.jar --name b --bind 0.0.0.0:8100 \
 *      --neighbour a@10.0.0.1:8100 --neighbour c@[2001:db8::3]:8100 [--metrics 0.0.0.0:9400] \
 *      [--stats-interval 60s] [--echo-port 7] [--until-stdin-closes]
 * </pre>
 *
 * <p>It prints {@code READY <name> <port>} on stdout once its socket is bound, and logs to stderr
 * what happens to its links and routes, and statistics every minute. {@code --help} lists the
 * options. A bad argument or an address in use ends it with one line on stderr and exit code 2.
 *
 * <p>Links are authenticated and encrypted with {@code --key} and a trusted-keys file or an
 * authority's certificate; {@code --insecure} must be given to run without, and is logged as a
 * warning. The certificate, trusted-keys and revocation files ({@code --revocations}) are re-read
 * when they change and on SIGHUP, so that renewal and revocation need no restart. {@code keytool ...}
 * as the first argument makes keys and certificates instead, {@code keytool revoke ...} revocation
 * lists.
 *
 * <p>With {@code --trace NODE [--metric M]} it runs once instead: it waits for a route to NODE,
 * traces it, prints the hops as a table on stdout and exits with 0 when NODE answered, 1 when not.
 */
public final class NodeDaemon {
    /** One line per record, which is what an operator greps and a log collector splits on. */
    private static final String LOG_FORMAT = "%1$tF %1$tT.%1$tL %4$s %5$s%6$s%n";

    private NodeDaemon() {}

    public static void main(String[] args) {
        if (System.getProperty("java.util.logging.config.file") == null
                && System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", LOG_FORMAT);
        }
        System.exit(run(args, System.out, System.err, System.in));
    }

    /**
     * Runs a node until standard input ends (with {@code --until-stdin-closes}) or the process is
     * stopped, or with {@code --trace} until the trace is printed; returns the exit code: 0 (for a trace:
     * the destination answered), 1 for a trace that did not reach its destination, or {@link
     * SetupException#EXIT_CODE} when the arguments or an address were refused (then without starting
     * anything).
     */
    public static int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        if (args.length > 0 && args[0].equals("keytool")) {
            return net.hopwise.overlay.daemon.KeyCommands.run(java.util.Arrays.copyOfRange(args, 1, args.length),
                    out, err);
        }
        DaemonOptions options;
        try {
            options = DaemonArguments.parse(List.of(args));
        } catch (SetupException e) {
            return refuse(err, e.getMessage() + " (--help lists the options)");
        }
        if (options == null) {
            out.println(DaemonArguments.USAGE);
            out.flush();
            return 0;
        }
        Daemon daemon;
        DaemonLog log = DaemonLog.system();
        try {
            daemon = Daemon.start(options, log);
        } catch (SetupException e) {
            return refuse(err, e.getMessage());
        }
        Thread hook = new Thread(daemon::close, "hopwise-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = 0;
        try {
            if (options.trace() != null) {
                // Interrupted before the trace printed, the command has not shown the node reached.
                code = TraceCommand.NOT_REACHED;
                code = TraceCommand.run(daemon.node(), options.trace(), out);
            } else {
                daemon.reloadOnHangup();
                out.println("READY " + daemon.node().name() + " " + daemon.node().localAddress().getPort());
                out.flush();
                if (options.untilStdinCloses()) {
                    awaitEnd(in);
                } else {
                    new CountDownLatch(1).await();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            daemon.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or has run: the daemon is closed either way.
            }
        }
        return code;
    }

    private static int refuse(PrintStream err, String message) {
        err.println("hopwise node: " + message);
        err.flush();
        return SetupException.EXIT_CODE;
    }

    private static void awaitEnd(InputStream in) {
        try {
            while (in.read() >= 0) {
                // Only the end of the stream matters: the parent process is gone or done.
            }
        } catch (IOException e) {
            // A broken stdin means the parent is gone, same as end of stream.
        }
    }
}
