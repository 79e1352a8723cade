package net.hopwise.overlay.security.reload;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.RevocationList;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.TrustedKeys;

/**
 * Applies changed security files to a running node: a renewed certificate, an edited trusted-keys
 * list, a newer revocation list. A file is re-read when its modification time, size or identity
 * (another file renamed into place) differs from when it was last read, or on SIGHUP. A file that
 * does not read, parse or fit is refused with one WARNING line saying why, and the node keeps what it
 * had: a half-written or mistaken file must never leave a node without a certificate or admitting
 * nobody. Each file is read once per change, so a bad one is reported once, not at every check.
 *
 * <p>NodeDaemon and overlay-admin both run one, so that a file is judged and reported the same way
 * whichever program runs the node; they differ only in the name of the interval setting they quote.
 */
public final class SecurityReload {
    /** What a file looked like when last read; null fields for a file that was not there. */
    private record Stamp(FileTime modified, long size, Object fileKey) {}

    private final String name;
    private final byte[] identity;
    private final SecurityFiles files;
    private final SecureLinks links;
    private final ReloadLog log;
    private final Map<Path, Stamp> seen = new HashMap<>();
    private volatile NodeCertificate certificate;
    private volatile RevocationList revocations;

    /**
     * Takes the files as they are now as the ones {@code security} was read from: only a later change
     * is applied by {@link #check}.
     */
    public SecurityReload(SecurityConfig security, SecurityFiles files, SecureLinks links, ReloadLog log) {
        this.name = security.name();
        this.identity = security.keys().identityPublic();
        this.certificate = security.certificate();
        this.files = files;
        this.links = links;
        this.log = log;
        // As read at start-up: only a later change is applied by a check.
        for (Path p : files.watched()) {
            seen.put(p, stamp(p));
        }
    }

    /**
     * Publishes the revocation list the node was started with, if any: a node that restarts must
     * refuse what was revoked before its neighbours tell it again.
     */
    public CompletableFuture<Void> start() {
        return files.revocations() == null ? CompletableFuture.completedFuture(null) : revocations(files.revocations());
    }

    /** Whether there is no file to re-read (trusted keys come with a file, so only a bare authority setup). */
    public boolean isEmpty() {
        return files.watched().isEmpty();
    }

    /** Re-reads each file that changed since it was last read; completes once each is applied or refused. */
    public synchronized CompletableFuture<Void> check() {
        return reload(false);
    }

    /** Re-reads every file, changed or not: what SIGHUP asks for. */
    public synchronized CompletableFuture<Void> reloadAll() {
        return reload(true);
    }

    /**
     * Runs {@link #check} every {@code checkInterval} on {@code executor}; closing the result stops it.
     * Nothing is scheduled for an interval of zero or when there is no file to watch.
     */
    public AutoCloseable checkEvery(ScheduledExecutorService executor) {
        long every = files.checkInterval().toMillis();
        if (every <= 0 || isEmpty()) {
            return () -> { };
        }
        ScheduledFuture<?> task = executor.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException e) {
                // A failed check must not cancel the later ones (the executor would, silently).
                log.log(Level.WARNING, "checking the security files failed: " + e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        return () -> task.cancel(false);
    }

    /**
     * Makes SIGHUP re-read every file ({@link #reloadAll}) until the result is closed, and logs how
     * changes reach the node: by signal and every {@code checkInterval}, by the interval alone when
     * the signal cannot be handled, or not at all (a WARNING, since an operator counts on one or the
     * other). Handling SIGHUP replaces the JVM's default, which is to end the process.
     *
     * @param intervalSetting how the program names the interval setting, quoted when it is zero
     */
    public AutoCloseable reloadOnHangup(String intervalSetting) {
        if (isEmpty()) {
            return () -> { };
        }
        Hangup.Registration registration = Hangup.register(this::reloadAll);
        String why = registration.unavailable();
        java.time.Duration interval = files.checkInterval();
        String every = interval.isZero() ? null : "every " + interval.toSeconds() + " s";
        if (why == null) {
            log.log(Level.INFO, "security files are re-read on SIGHUP" + (every == null ? "" : " and when changed, checked "
                    + every));
        } else if (every != null) {
            log.log(Level.WARNING, "SIGHUP cannot re-read the security files: " + why + "; they are re-read when changed,"
                    + " checked " + every);
        } else {
            log.log(Level.WARNING, "SIGHUP cannot re-read the security files: " + why + ", and " + intervalSetting
                    + " is 0: changes to them apply only when the node restarts");
        }
        return registration;
    }

    private CompletableFuture<Void> reload(boolean all) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (Path p : files.watched()) {
            Stamp now = stamp(p);
            if (!all && Objects.equals(now, seen.get(p))) {
                continue;
            }
            seen.put(p, now);
            if (p.equals(files.certificate())) {
                done.add(certificate(p));
            }
            if (p.equals(files.trustedKeys())) {
                done.add(trustedKeys(p));
            }
            if (p.equals(files.revocations())) {
                done.add(revocations(p));
            }
        }
        return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
    }

    private static Stamp stamp(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return new Stamp(a.lastModifiedTime(), a.size(), a.fileKey());
        } catch (IOException e) {
            return new Stamp(null, -1, null);
        }
    }

    private CompletableFuture<Void> certificate(Path file) {
        NodeCertificate renewed;
        try {
            renewed = NodeCertificate.decode(Files.readAllBytes(file)).orElseThrow(() ->
                    new IllegalArgumentException("it is not a hopwise node certificate"));
        } catch (IOException | IllegalArgumentException e) {
            return refused("certificate", file, keeps(), why(e));
        }
        NodeCertificate current = certificate;
        if (renewed.equals(current)) {
            log.log(Level.INFO, "certificate " + file + " unchanged (serial " + renewed.serial() + ")");
            return CompletableFuture.completedFuture(null);
        }
        // The bytes just checked, not a second read that could see yet another version of the file.
        return links.renewCertificate(renewed).handle((ok, e) -> {
            if (e != null) {
                refuse("certificate", file, keeps(), why(e));
            } else {
                certificate = renewed;
                log.log(Level.INFO, "certificate " + file + " renewed: serial " + renewed.serial() + ", valid until "
                        + Instant.ofEpochSecond(renewed.notAfter()) + "; new handshakes and the next link-state version"
                        + " carry it");
            }
            return null;
        });
    }

    private String keeps() {
        NodeCertificate c = certificate;
        return "the node keeps its certificate" + (c == null ? "" : " (serial " + c.serial() + ", valid until "
                + Instant.ofEpochSecond(c.notAfter()) + ")");
    }

    private CompletableFuture<Void> trustedKeys(Path file) {
        String keeps = "the node keeps admitting by the list it had";
        TrustedKeys trusted;
        try {
            trusted = TrustedKeys.read(file);
        } catch (IOException | IllegalArgumentException e) {
            return refused("trusted-keys file", file, keeps, why(e));
        }
        if (trusted.keys(name).stream().noneMatch(k -> Arrays.equals(k, identity))) {
            return refused("trusted-keys file", file, keeps, "it does not list " + name + " with this node's key ("
                    + TrustedKeys.line(name, identity) + "), so every neighbour reading it would refuse this node");
        }
        return links.updateAdmission(trusted).handle((cut, e) -> {
            if (e != null) {
                refuse("trusted-keys file", file, keeps, why(e));
            } else {
                log.log(Level.INFO, "trusted-keys file " + file + " applied: " + trusted.names().size()
                        + " names admitted" + cutOff(cut));
            }
            return null;
        });
    }

    private CompletableFuture<Void> revocations(Path file) {
        String keeps = "the revocations already applied stay";
        RevocationList list;
        try {
            list = readRevocations(file, files.authorityKeys());
        } catch (IllegalArgumentException e) {
            return refused("revocation list", file, keeps, why(e));
        }
        RevocationList current = revocations;
        if (list.equals(current)) {
            log.log(Level.INFO, "revocation list " + file + " unchanged (version " + list.version() + ")");
            return CompletableFuture.completedFuture(null);
        }
        return links.publishRevocations(list).handle((cut, e) -> {
            if (e != null) {
                refuse("revocation list", file, keeps, why(e));
            } else {
                revocations = list;
                log.log(Level.INFO, "revocation list " + file + " version " + list.version() + " applied and flooded: "
                        + list.serials().size() + " certificate serials and " + list.keys().size() + " keys revoked"
                        + cutOff(cut));
            }
            return null;
        });
    }

    /**
     * The revocation list in {@code file}, checked against the authorities the node admits by.
     *
     * @throws IllegalArgumentException saying, in one line, why the file is not such a list
     */
    public static RevocationList readRevocations(Path file, List<String> authorityKeys) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("it does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read it: " + e.getMessage(), e);
        }
        RevocationList list = RevocationList.decode(bytes).orElseThrow(() -> new IllegalArgumentException(
                "it is not a hopwise revocation list (keytool revoke makes one)"));
        boolean known = false;
        for (String k : authorityKeys) {
            known |= Arrays.equals(TrustedKeys.parseKey(k), list.authorityKey());
        }
        if (!known) {
            throw new IllegalArgumentException("it is signed by authority " + Crypto.fingerprint(list.authorityKey())
                    + ", not by one this node admits by");
        }
        if (!list.signatureValid()) {
            throw new IllegalArgumentException("its signature does not verify (altered after signing?)");
        }
        return list;
    }

    private static String cutOff(List<String> cut) {
        return cut == null || cut.isEmpty() ? "; no link cut off" : "; links cut off: " + String.join(", ", cut);
    }

    private CompletableFuture<Void> refused(String what, Path file, String keeps, String why) {
        refuse(what, file, keeps, why);
        return CompletableFuture.completedFuture(null);
    }

    private void refuse(String what, Path file, String keeps, String why) {
        log.log(Level.WARNING, what + " " + file + " refused, " + keeps + ": " + why);
    }

    private static String why(Throwable e) {
        Throwable t = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        if (t instanceof NoSuchFileException) {
            return "it does not exist";
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
