"""ToolRec's own protocol (paper §4.1.2): leave-one-out sequential recommendation,
Recall@10 and NDCG@10 over sampled users, several samples, mean ± std (Table 2)."""
