package net.hopwise.overlay;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The stable identity of an overlay node, independent of any IP address.
 *
 * <p>The id is derived from the node's name (the first 64 bits of its SHA-256), so every node can
 * compute any other node's id from the name alone: no directory is needed to address a node, and a
 * node keeps its identity when it moves to another address or address family.
 */
public record NodeId(long value) implements Comparable<NodeId> {
    /** Names are short printable identifiers so they fit in hellos and link-state records. */
    public static final int MAX_NAME_LENGTH = 64;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public NodeId {
        if (value == 0) {
            throw new IllegalArgumentException("node id 0 is reserved for 'unknown'");
        }
    }

    /** The id of the node with this name. */
    public static NodeId ofName(String name) {
        requireValidName(name);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (digest[i] & 0xFF);
            }
            return new NodeId(v == 0 ? 1 : v);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** Throws {@link IllegalArgumentException} naming the rule a bad node name breaks. */
    public static String requireValidName(String name) {
        Objects.requireNonNull(name, "node name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid node name '" + name
                    + "': use 1 to " + MAX_NAME_LENGTH
                    + " characters from A-Z a-z 0-9 . _ - starting with a letter or digit");
        }
        return name;
    }

    @Override
    public int compareTo(NodeId other) {
        return Long.compareUnsigned(value, other.value);
    }

    @Override
    public String toString() {
        return String.format("%016x", value);
    }
}
