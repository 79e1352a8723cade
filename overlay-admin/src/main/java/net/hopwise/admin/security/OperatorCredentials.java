package net.hopwise.admin.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import net.hopwise.admin.config.AdminProperties;
import net.hopwise.admin.config.HopwiseProperties;
import net.hopwise.admin.config.InvalidSettingsException;

/**
 * The credentials that may change the overlay: a bearer token, a user name and password for basic
 * authentication, either or both. Compared in constant time, on digests so that lengths leak nothing.
 */
public final class OperatorCredentials {
    /** The demo's documented credentials; never used outside the demo. */
    public static final String DEMO_USER = "demo";
    public static final String DEMO_PASSWORD = "demo";

    private final byte[] token;
    private final String username;
    private final byte[] password;

    OperatorCredentials(String token, String username, String password) {
        this.token = blank(token) ? null : digest(token);
        this.username = blank(username) ? null : username;
        this.password = blank(password) ? null : digest(password);
        if ((this.username == null) != (this.password == null)) {
            throw new InvalidSettingsException(List.of(
                    "hopwise.admin.security: set both username and password, or neither"));
        }
    }

    /** The configured credentials; in the demo with none configured, demo / demo. */
    public static OperatorCredentials from(HopwiseProperties properties) {
        AdminProperties.Security s = properties.getAdmin().getSecurity();
        if (properties.demoMode() && blank(s.getToken()) && blank(s.getUsername()) && blank(s.getPassword())) {
            return new OperatorCredentials(null, DEMO_USER, DEMO_PASSWORD);
        }
        return new OperatorCredentials(s.getToken(), s.getUsername(), s.getPassword());
    }

    /** True when nobody can authenticate, so mutations are disabled. */
    public boolean none() {
        return token == null && username == null;
    }

    public boolean basicConfigured() {
        return username != null;
    }

    public boolean tokenConfigured() {
        return token != null;
    }

    /** The user an Authorization header authenticates, or null when it does not. */
    String authenticate(String authorization) {
        if (authorization == null) {
            return null;
        }
        if (authorization.regionMatches(true, 0, "Bearer ", 0, 7) && token != null) {
            return MessageDigest.isEqual(token, digest(authorization.substring(7).trim())) ? "token" : null;
        }
        if (authorization.regionMatches(true, 0, "Basic ", 0, 6) && username != null) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
                        StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
            int colon = decoded.indexOf(':');
            if (colon < 0) {
                return null;
            }
            boolean user = MessageDigest.isEqual(digest(username), digest(decoded.substring(0, colon)));
            boolean pass = MessageDigest.isEqual(password, digest(decoded.substring(colon + 1)));
            return user & pass ? username : null;
        }
        return null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
