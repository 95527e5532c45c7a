-- Up Migration
-- Migration 795's measure_recommendation() (the trigger on volume_metrics_10s) reads
-- recommendation_decisions and volume_policies, and runs as the role that writes the interval: the
-- metrics job's tierwise_jobs, which had no privilege on either table, so every insert of
-- volume_metrics_10s failed with "permission denied for table recommendation_decisions".
GRANT SELECT ON recommendation_decisions, volume_policies TO tierwise_jobs;

-- Down Migration
REVOKE SELECT ON recommendation_decisions, volume_policies FROM tierwise_jobs;
