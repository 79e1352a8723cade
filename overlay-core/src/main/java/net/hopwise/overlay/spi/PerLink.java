package net.hopwise.overlay.spi;

/**
 * A module's state for each link, made on first use and forgotten when the link is removed, so a
 * module never keeps a removed neighbour's state or a stale reference to it.
 */
public interface PerLink<T> {
    /** This link's state, made by the module's factory on first use. */
    T get(LinkView link);

    /** This link's state, or null when none was made yet. */
    T peek(LinkView link);
}
