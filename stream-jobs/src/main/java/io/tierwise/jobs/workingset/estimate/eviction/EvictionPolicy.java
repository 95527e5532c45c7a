package io.tierwise.jobs.workingset.estimate.eviction;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The eviction policies of the agent's cache engine (docs/eviction.md), each with a Java mirror
 * that gives the same hit or miss as the engine for every reference at a fixed capacity: for
 * miniature simulations of the cache the agent actually runs (Waldspurger, Saemundsson, Ahmad and
 * Park, "Cache Modeling and Optimization using Miniature Simulations", USENIX ATC 2017).
 */
public enum EvictionPolicy {
  /** Least recently used; mirrors edge-agent/src/cache/eviction/lru_policy.hpp. */
  LRU("lru", "lru"),
  /** S3-FIFO (SOSP 2023); mirrors edge-agent/src/cache/eviction/s3fifo_policy.cpp. */
  S3FIFO("s3fifo", "s3-fifo"),
  /** ARC (FAST 2003); mirrors edge-agent/src/cache/eviction/arc_policy.cpp. */
  ARC("arc", "arc"),
  /** 2Q (VLDB 1994); mirrors edge-agent/src/cache/eviction/two_q_policy.cpp. */
  TWO_Q("2q", "2q"),
  /** SIEVE (NSDI 2024); mirrors edge-agent/src/cache/eviction/sieve_policy.cpp. */
  SIEVE("sieve", "sieve");

  /** The engine's default policy (edge-agent/src/cache/eviction/eviction_policy.hpp, kDefaultPolicy). */
  public static final EvictionPolicy ENGINE_DEFAULT = S3FIFO;

  private final String wireName;
  private final String serviceName;

  EvictionPolicy(String wireName, String serviceName) {
    this.wireName = wireName;
    this.serviceName = serviceName;
  }

  /** The policy's name as the agent spells it: lru, s3fifo, arc, 2q, sieve. */
  public String wireName() {
    return wireName;
  }

  /**
   * The policy's name as the services and the database spell it (services/common/src/contracts/
   * cache-policy.ts): lru, s3-fifo, arc, 2q, sieve.
   */
  public String serviceName() {
    return serviceName;
  }

  /**
   * The policy named {@code name} ({@link #wireName}, exact spelling).
   *
   * @throws IllegalArgumentException for any other name; the message lists the valid ones
   */
  public static EvictionPolicy parse(String name) {
    return named(name, EvictionPolicy::wireName);
  }

  /**
   * The policy the services name {@code name} ({@link #serviceName}, exact spelling).
   *
   * @throws IllegalArgumentException for any other name; the message lists the valid ones
   */
  public static EvictionPolicy parseService(String name) {
    return named(name, EvictionPolicy::serviceName);
  }

  private static EvictionPolicy named(String name, Function<EvictionPolicy, String> spelling) {
    for (EvictionPolicy p : values()) {
      if (spelling.apply(p).equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown eviction policy '" + name + "': valid are "
        + Arrays.stream(values()).map(spelling).collect(Collectors.joining(", ")));
  }

  /**
   * An empty cache of this policy holding at most {@code capacityBlocks} 4 KiB blocks.
   *
   * @throws IllegalArgumentException when {@code capacityBlocks < 1}
   */
  public SimulatedCache newCache(int capacityBlocks) {
    return switch (this) {
      case LRU -> new LruCache(capacityBlocks);
      case S3FIFO -> new S3FifoCache(capacityBlocks);
      case ARC -> new ArcCache(capacityBlocks);
      case TWO_Q -> new TwoQCache(capacityBlocks);
      case SIEVE -> new SieveCache(capacityBlocks);
    };
  }
}
