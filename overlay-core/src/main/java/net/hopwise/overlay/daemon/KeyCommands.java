package net.hopwise.overlay.daemon;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Arrays;
import net.hopwise.overlay.security.KeyTool;

/**
 * The {@code keytool} command of the daemon's and the admin's jars: {@code revoke} writes a revocation
 * list (a daemon file, so the command lives here), everything else is the security package's key tool.
 * One entry point, so that both jars take the same commands.
 */
public final class KeyCommands {
    private KeyCommands() {
    }

    /** Runs {@code keytool ARGS} (the words after {@code keytool}); returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        long now = Instant.now().getEpochSecond();
        if (args.length > 0 && args[0].equals("revoke")) {
            return RevokeCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err, now);
        }
        return KeyTool.run(args, out, err, now);
    }
}
