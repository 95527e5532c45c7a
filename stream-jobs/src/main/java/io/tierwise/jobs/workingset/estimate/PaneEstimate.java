package io.tierwise.jobs.workingset.estimate;

import java.util.Optional;

/**
 * A sliding window pane's LRU estimate at one moment ({@link WindowPane#estimate}): its sampled
 * references and re-references by distance, normalised by its own sampled weight (classic SHARDS,
 * Waldspurger et al., FAST 2015, section 3.1), and its sampled blocks (read, written) scaled by
 * {@code 1 / R} at that moment. Its distance counts are its own: it does not change afterwards.
 */
final class PaneEstimate implements MrcEstimate {
  private final String method;
  private final double rate;
  private final long references;
  private final long readReferences;
  private final double weight;
  private final double readWeight;
  private final DistanceCounts hits;
  private final DistanceCounts readHits;
  private final long blocks;
  private final long readBlocks;
  private final long writeBlocks;

  PaneEstimate(String method, double rate, long references, long readReferences, double weight, double readWeight,
      DistanceCounts hits, DistanceCounts readHits, long blocks, long readBlocks, long writeBlocks) {
    this.method = method;
    this.rate = rate;
    this.references = references;
    this.readReferences = readReferences;
    this.weight = weight;
    this.readWeight = readWeight;
    this.hits = hits;
    this.readHits = readHits;
    this.blocks = blocks;
    this.readBlocks = readBlocks;
    this.writeBlocks = writeBlocks;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public double rate() {
    return rate;
  }

  @Override
  public long references() {
    return references;
  }

  @Override
  public long readReferences() {
    return readReferences;
  }

  @Override
  public long workingSetBytes() {
    return scaled(blocks);
  }

  @Override
  public long readWorkingSetBytes() {
    return scaled(readBlocks);
  }

  @Override
  public long writeWorkingSetBytes() {
    return scaled(writeBlocks);
  }

  private long scaled(long sampledBlocks) {
    return Math.round(sampledBlocks / rate) * ShardsEstimator.BLOCK_BYTES;
  }

  @Override
  public MissRatioCurve missRatioCurve(long[] cacheBytes) {
    return missRatioFunction(false).at(cacheBytes);
  }

  @Override
  public Optional<MissRatioCurve> readMissRatioCurve(long[] cacheBytes) {
    return readMissRatioFunction(false).map(f -> f.at(cacheBytes));
  }

  @Override
  public MissRatioFunction missRatioFunction() {
    return missRatioFunction(true);
  }

  @Override
  public Optional<MissRatioFunction> readMissRatioFunction() {
    return readMissRatioFunction(true);
  }

  /**
   * @param detached a copy of the weights without trailing zeros (kept and shipped), else the
   *     estimate's own (evaluated at once)
   * @throws IllegalStateException when the pane has no sampled reference (the MRC is undefined)
   */
  private MissRatioFunction missRatioFunction(boolean detached) {
    if (references == 0) {
      throw new IllegalStateException("no sampled references in the pane yet: the MRC is undefined");
    }
    return MissRatioFunction.of(hits, weight, weight, 1, detached);
  }

  private Optional<MissRatioFunction> readMissRatioFunction(boolean detached) {
    return readReferences == 0 ? Optional.empty()
        : Optional.of(MissRatioFunction.of(readHits, readWeight, readWeight, 1, detached));
  }
}
