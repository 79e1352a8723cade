package net.hopwise.multicast;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A multicast group's identity: the first 64 bits of the SHA-256 of its name, exactly as a node's id
 * is derived from the node's name, so any node computes a group's id from its name alone and no
 * directory of groups is needed. 0 is no group's id.
 */
public record GroupId(long value) implements Comparable<GroupId> {
    /** Group names follow the rules of node names, so they print and log the same way. */
    public static final int MAX_NAME_LENGTH = 64;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public GroupId {
        if (value == 0) {
            throw new IllegalArgumentException("group id 0 is reserved");
        }
    }

    /** The id of the group with this name. */
    public static GroupId ofName(String name) {
        requireValidName(name);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (digest[i] & 0xFF);
            }
            return new GroupId(v == 0 ? 1 : v);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** Throws {@link IllegalArgumentException} naming the rule a bad group name breaks. */
    public static String requireValidName(String name) {
        Objects.requireNonNull(name, "group name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid group name '" + name + "': use 1 to " + MAX_NAME_LENGTH
                    + " characters from A-Z a-z 0-9 . _ - starting with a letter or digit");
        }
        return name;
    }

    @Override
    public int compareTo(GroupId other) {
        return Long.compareUnsigned(value, other.value);
    }

    @Override
    public String toString() {
        return String.format("%016x", value);
    }
}
