"""InteRecAgent's own protocols (Huang et al., §4.1): session-wise Hit@k / AT@k over a run's
stored dialogues, and the one-turn recommendation task (retrieval Recall@k, ranking NDCG@k)."""
