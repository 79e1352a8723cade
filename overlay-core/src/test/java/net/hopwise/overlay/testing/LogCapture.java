package net.hopwise.overlay.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one {@code java.util.logging} logger publishes while the capture is open: how a test
 * reads the lines the code writes through {@link System.Logger}, which the JDK's platform logging
 * sends there. Held by the capture: the platform logger finds this very logger by name only while
 * something keeps it.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private LogCapture(String loggerName) {
        logger = Logger.getLogger(loggerName);
        logger.addHandler(handler);
    }

    /** Captures what the logger named {@code loggerName} publishes, from now until {@link #close}. */
    public static LogCapture of(String loggerName) {
        return new LogCapture(loggerName);
    }

    /** As {@link #of(String)} for the logger a class names after itself. */
    public static LogCapture of(Class<?> owner) {
        return of(owner.getName());
    }

    /** Every record so far, oldest first. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** The records at WARNING or above, oldest first. */
    public List<LogRecord> warnings() {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
