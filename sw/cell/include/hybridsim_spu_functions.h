/* Every function of the SDK's SPU interface (spu_mfcio.h) that reaches the simulator, once:
 * HS_SPU_FN(return type, name, (parameters), (arguments)) and HS_SPU_FN0(return type, name)
 * for those without parameters. The simulator's side (sw/cell/spu_sdk.h) declares its
 * members from this list, and so do the program-facing header and the SPU program runtime's
 * forwarders, so none can disagree. Not for programs to include. */
/* Channels, as the channel instructions reach them. */
HS_SPU_FN(unsigned int, spu_readch, (unsigned int channel), (channel))
HS_SPU_FN(void, spu_writech, (unsigned int channel, unsigned int value), (channel, value))
HS_SPU_FN(unsigned int, spu_readchcnt, (unsigned int channel), (channel))
/* DMA: GET, PUT and their forms. */
HS_SPU_FN(void, spu_mfcdma64,
          (volatile void* ls, unsigned int eahi, unsigned int ealow, unsigned int size,
           unsigned int tagid, unsigned int cmd),
          (ls, eahi, ealow, size, tagid, cmd))
HS_SPU_FN(void, spu_mfcdma32,
          (volatile void* ls, unsigned int ea, unsigned int size, unsigned int tagid,
           unsigned int cmd),
          (ls, ea, size, tagid, cmd))
HS_SPU_FN(void, mfc_put,
          (volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
           unsigned int tid, unsigned int rid),
          (ls, ea, size, tag, tid, rid))
HS_SPU_FN(void, mfc_putb,
          (volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
           unsigned int tid, unsigned int rid),
          (ls, ea, size, tag, tid, rid))
HS_SPU_FN(void, mfc_putf,
          (volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
           unsigned int tid, unsigned int rid),
          (ls, ea, size, tag, tid, rid))
HS_SPU_FN(void, mfc_get,
          (volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
           unsigned int tid, unsigned int rid),
          (ls, ea, size, tag, tid, rid))
HS_SPU_FN(void, mfc_getb,
          (volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
           unsigned int tid, unsigned int rid),
          (ls, ea, size, tag, tid, rid))
HS_SPU_FN(void, mfc_getf,
          (volatile void* ls, unsigned long long ea, unsigned int size, unsigned int tag,
           unsigned int tid, unsigned int rid),
          (ls, ea, size, tag, tid, rid))
/* DMA lists: `list` (in the local store) holds list_size / 8 elements. */
HS_SPU_FN(void, mfc_putl,
          (volatile void* ls, unsigned long long ea, volatile void* list, unsigned int list_size,
           unsigned int tag, unsigned int tid, unsigned int rid),
          (ls, ea, list, list_size, tag, tid, rid))
HS_SPU_FN(void, mfc_putlb,
          (volatile void* ls, unsigned long long ea, volatile void* list, unsigned int list_size,
           unsigned int tag, unsigned int tid, unsigned int rid),
          (ls, ea, list, list_size, tag, tid, rid))
HS_SPU_FN(void, mfc_putlf,
          (volatile void* ls, unsigned long long ea, volatile void* list, unsigned int list_size,
           unsigned int tag, unsigned int tid, unsigned int rid),
          (ls, ea, list, list_size, tag, tid, rid))
HS_SPU_FN(void, mfc_getl,
          (volatile void* ls, unsigned long long ea, volatile void* list, unsigned int list_size,
           unsigned int tag, unsigned int tid, unsigned int rid),
          (ls, ea, list, list_size, tag, tid, rid))
HS_SPU_FN(void, mfc_getlb,
          (volatile void* ls, unsigned long long ea, volatile void* list, unsigned int list_size,
           unsigned int tag, unsigned int tid, unsigned int rid),
          (ls, ea, list, list_size, tag, tid, rid))
HS_SPU_FN(void, mfc_getlf,
          (volatile void* ls, unsigned long long ea, volatile void* list, unsigned int list_size,
           unsigned int tag, unsigned int tid, unsigned int rid),
          (ls, ea, list, list_size, tag, tid, rid))
/* Signal notification, ordering, atomics. */
HS_SPU_FN(void, mfc_sndsig,
          (volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int tid,
           unsigned int rid),
          (ls, ea, tag, tid, rid))
HS_SPU_FN(void, mfc_sndsigb,
          (volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int tid,
           unsigned int rid),
          (ls, ea, tag, tid, rid))
HS_SPU_FN(void, mfc_sndsigf,
          (volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int tid,
           unsigned int rid),
          (ls, ea, tag, tid, rid))
HS_SPU_FN(void, mfc_barrier, (unsigned int tag), (tag))
HS_SPU_FN(void, mfc_eieio, (unsigned int tag, unsigned int tid, unsigned int rid), (tag, tid, rid))
HS_SPU_FN(void, mfc_sync, (unsigned int tag), (tag))
HS_SPU_FN(void, mfc_getllar,
          (volatile void* ls, unsigned long long ea, unsigned int tid, unsigned int rid),
          (ls, ea, tid, rid))
HS_SPU_FN(void, mfc_putllc,
          (volatile void* ls, unsigned long long ea, unsigned int tid, unsigned int rid),
          (ls, ea, tid, rid))
HS_SPU_FN(void, mfc_putlluc,
          (volatile void* ls, unsigned long long ea, unsigned int tid, unsigned int rid),
          (ls, ea, tid, rid))
HS_SPU_FN(void, mfc_putqlluc,
          (volatile void* ls, unsigned long long ea, unsigned int tag, unsigned int tid,
           unsigned int rid),
          (ls, ea, tag, tid, rid))
HS_SPU_FN0(unsigned int, mfc_read_atomic_status)
/* Tag groups and the command queue. */
HS_SPU_FN(void, mfc_write_tag_mask, (unsigned int mask), (mask))
HS_SPU_FN0(unsigned int, mfc_read_tag_mask)
HS_SPU_FN(void, mfc_write_tag_update, (unsigned int ts), (ts))
HS_SPU_FN0(void, mfc_write_tag_update_immediate)
HS_SPU_FN0(void, mfc_write_tag_update_any)
HS_SPU_FN0(void, mfc_write_tag_update_all)
HS_SPU_FN0(unsigned int, mfc_stat_tag_update)
HS_SPU_FN0(unsigned int, mfc_read_tag_status)
HS_SPU_FN0(unsigned int, mfc_read_tag_status_immediate)
HS_SPU_FN0(unsigned int, mfc_read_tag_status_any)
HS_SPU_FN0(unsigned int, mfc_read_tag_status_all)
HS_SPU_FN0(unsigned int, mfc_stat_tag_status)
HS_SPU_FN0(unsigned int, mfc_read_list_stall_status)
HS_SPU_FN0(unsigned int, mfc_stat_list_stall_status)
HS_SPU_FN(void, mfc_write_list_stall_ack, (unsigned int tag), (tag))
HS_SPU_FN0(unsigned int, mfc_stat_cmd_queue)
/* Mailboxes, signals, decrementer, events. */
HS_SPU_FN0(unsigned int, spu_read_in_mbox)
HS_SPU_FN0(unsigned int, spu_stat_in_mbox)
HS_SPU_FN(void, spu_write_out_mbox, (unsigned int data), (data))
HS_SPU_FN0(unsigned int, spu_stat_out_mbox)
HS_SPU_FN(void, spu_write_out_intr_mbox, (unsigned int data), (data))
HS_SPU_FN0(unsigned int, spu_stat_out_intr_mbox)
HS_SPU_FN0(unsigned int, spu_read_signal1)
HS_SPU_FN0(unsigned int, spu_stat_signal1)
HS_SPU_FN0(unsigned int, spu_read_signal2)
HS_SPU_FN0(unsigned int, spu_stat_signal2)
HS_SPU_FN0(unsigned int, spu_read_decrementer)
HS_SPU_FN(void, spu_write_decrementer, (unsigned int count), (count))
HS_SPU_FN0(unsigned int, spu_read_event_status)
HS_SPU_FN0(unsigned int, spu_stat_event_status)
HS_SPU_FN(void, spu_write_event_mask, (unsigned int mask), (mask))
HS_SPU_FN0(unsigned int, spu_read_event_mask)
HS_SPU_FN(void, spu_write_event_ack, (unsigned int ack), (ack))
