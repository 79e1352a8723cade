package net.hopwise.overlay.security.reload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The security files a running node keeps reading, so that an operator renews a certificate, edits
 * the trusted-keys list or revokes a node without restarting anything ({@link SecurityReload}).
 *
 * @param keyFile this node's private key file (never re-read: a new identity is a new node)
 * @param trustedKeys the trusted-keys file, or null under an authority
 * @param authorityKeys the authorities' public keys ({@code ed25519:BASE64}); empty with a trusted-keys file
 * @param certificate this node's certificate file under an authority, null otherwise
 * @param revocations the authority-signed revocation list file, or null
 * @param checkInterval how often the files' modification times are compared with the last read;
 *     {@link Duration#ZERO} to re-read them only on SIGHUP
 */
public record SecurityFiles(Path keyFile, Path trustedKeys, List<String> authorityKeys, Path certificate,
        Path revocations, Duration checkInterval) {

    /**
     * 10 s: a revocation is the urgent change (a stolen key is in use until it is applied) and ten
     * seconds is well inside the time an operator takes to check that it worked; a check is one
     * {@code stat} per file, nothing against a node's work. SIGHUP applies a change at once.
     */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(10);
    /** Below a second a check finds nothing new that SIGHUP would not apply at once: a mistaken unit. */
    public static final Duration MIN_CHECK_INTERVAL = Duration.ofSeconds(1);
    /** Above a day a revocation waits longer than anyone would choose: a mistaken unit too. */
    public static final Duration MAX_CHECK_INTERVAL = Duration.ofDays(1);

    /**
     * @throws IllegalArgumentException for a revocation list under a trusted-keys list (no authority
     *     signs one there), or an interval {@link #intervalProblem} refuses; the message names no
     *     option, so that each program puts its own in front
     */
    public SecurityFiles {
        Objects.requireNonNull(keyFile, "keyFile");
        authorityKeys = List.copyOf(authorityKeys);
        Objects.requireNonNull(checkInterval, "checkInterval");
        String problem = intervalProblem(checkInterval);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (revocations != null && authorityKeys.isEmpty()) {
            throw new IllegalArgumentException("a revocation list is an authority's; under a trusted-keys list,"
                    + " remove the node's line from that file instead");
        }
    }

    /** Why {@code interval} is not a check interval (0, or 1 s to 24 h), in words; null when it is one. */
    public static String intervalProblem(Duration interval) {
        if (interval.isZero() || interval.compareTo(MIN_CHECK_INTERVAL) >= 0 && interval.compareTo(MAX_CHECK_INTERVAL) <= 0) {
            return null;
        }
        return interval + " is not 0 (only on SIGHUP) or 1 s to 24 h";
    }

    /** The files in the order they are re-read: what admits this node, then what it admits. */
    public List<Path> watched() {
        return Stream.of(certificate, trustedKeys, revocations).filter(Objects::nonNull).toList();
    }

    /**
     * Reads the revocation list now, as a node does at start-up: a list that a later check would refuse
     * is refused before the node starts, as every other security file is. Nothing to do without one.
     *
     * @throws IllegalArgumentException saying, in one line, why the file is not a list this node takes
     */
    public void checkRevocations() {
        if (revocations != null) {
            SecurityReload.readRevocations(revocations, authorityKeys);
        }
    }
}
