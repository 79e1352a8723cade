package net.hopwise.multicast;

/**
 * One node's counts for a group since it started.
 *
 * @param sent messages this node's applications sent to the group
 * @param sentFragments datagrams of those messages that left the source (one per fragment and child link)
 * @param delivered messages handed to local members (one per member)
 * @param forwarded fragments this node relayed to its children on some source's tree
 * @param localMembers local members now
 * @param memberNodes nodes this node's view holds as members now, itself included
 */
public record GroupStatistics(GroupId group, long sent, long sentFragments, long delivered, long forwarded,
        int localMembers, int memberNodes) {}
