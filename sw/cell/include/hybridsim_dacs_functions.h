/* Every function of hybridsim's dacs.h that reaches the simulator, once:
 * HS_DACS_FN(return type, name, (parameters), (arguments)), or HS_DACS_FN0(return type, name)
 * for one without parameters. dacs.h declares them from it, the
 * host and PPE program runtimes define the forwarders and the simulator its function table
 * (sw/cell/program/dacs_element.h), so the three cannot disagree. Not for programs to include. */
/* Runtime. */
HS_DACS_FN(DACS_ERR_T, dacs_runtime_init, (void* config, void* reserved), (config, reserved))
HS_DACS_FN0(DACS_ERR_T, dacs_runtime_exit)
/* Reservation and processes. */
HS_DACS_FN(DACS_ERR_T, dacs_get_num_avail_children, (DACS_DE_TYPE_T type, uint32_t* num_children),
           (type, num_children))
HS_DACS_FN(DACS_ERR_T, dacs_reserve_children,
           (DACS_DE_TYPE_T type, uint32_t* num_children, de_id_t* de_list),
           (type, num_children, de_list))
HS_DACS_FN(DACS_ERR_T, dacs_release_de_list, (uint32_t num_des, de_id_t* de_list),
           (num_des, de_list))
HS_DACS_FN(DACS_ERR_T, dacs_de_start,
           (de_id_t de, void* prog, char const** argv, char const** envv,
            DACS_PROC_CREATION_FLAG_T creation_flags, dacs_process_id_t* pid),
           (de, prog, argv, envv, creation_flags, pid))
HS_DACS_FN(DACS_ERR_T, dacs_de_wait, (de_id_t de, dacs_process_id_t pid, int32_t* exit_status),
           (de, pid, exit_status))
HS_DACS_FN(DACS_ERR_T, dacs_de_test, (de_id_t de, dacs_process_id_t pid, int32_t* exit_status),
           (de, pid, exit_status))
HS_DACS_FN(DACS_ERR_T, dacs_de_kill, (de_id_t de, dacs_process_id_t pid), (de, pid))
/* Remote memory. */
HS_DACS_FN(DACS_ERR_T, dacs_remote_mem_create,
           (void* addr, uint64_t size, DACS_MEMORY_ACCESS_MODE_T access_mode,
            dacs_remote_mem_t* mem),
           (addr, size, access_mode, mem))
HS_DACS_FN(DACS_ERR_T, dacs_remote_mem_share,
           (de_id_t dst_de, dacs_process_id_t dst_pid, dacs_remote_mem_t mem),
           (dst_de, dst_pid, mem))
HS_DACS_FN(DACS_ERR_T, dacs_remote_mem_accept,
           (de_id_t src_de, dacs_process_id_t src_pid, dacs_remote_mem_t* mem),
           (src_de, src_pid, mem))
HS_DACS_FN(DACS_ERR_T, dacs_remote_mem_release, (dacs_remote_mem_t * mem), (mem))
HS_DACS_FN(DACS_ERR_T, dacs_remote_mem_destroy, (dacs_remote_mem_t * mem), (mem))
HS_DACS_FN(DACS_ERR_T, dacs_remote_mem_query,
           (dacs_remote_mem_t mem, DACS_REMOTE_MEM_ATTR_T attr, uint64_t* value),
           (mem, attr, value))
/* Put and get. */
HS_DACS_FN(DACS_ERR_T, dacs_put,
           (dacs_remote_mem_t dst_remote_mem, uint64_t dst_remote_mem_offset, void* src_addr,
            uint64_t size, dacs_wid_t wid, DACS_ORDER_ATTR_T order_attr, DACS_BYTE_SWAP_T swap),
           (dst_remote_mem, dst_remote_mem_offset, src_addr, size, wid, order_attr, swap))
HS_DACS_FN(DACS_ERR_T, dacs_get,
           (void* dst_addr, dacs_remote_mem_t src_remote_mem, uint64_t src_remote_mem_offset,
            uint64_t size, dacs_wid_t wid, DACS_ORDER_ATTR_T order_attr, DACS_BYTE_SWAP_T swap),
           (dst_addr, src_remote_mem, src_remote_mem_offset, size, wid, order_attr, swap))
HS_DACS_FN(DACS_ERR_T, dacs_put_list,
           (dacs_remote_mem_t dst_remote_mem, dacs_dma_list_t* dst_dma_list, uint32_t dst_list_size,
            void* src_addr, dacs_dma_list_t* src_dma_list, uint32_t src_list_size, dacs_wid_t wid,
            DACS_ORDER_ATTR_T order_attr, DACS_BYTE_SWAP_T swap),
           (dst_remote_mem, dst_dma_list, dst_list_size, src_addr, src_dma_list, src_list_size, wid,
            order_attr, swap))
HS_DACS_FN(DACS_ERR_T, dacs_get_list,
           (void* dst_addr, dacs_dma_list_t* dst_dma_list, uint32_t dst_list_size,
            dacs_remote_mem_t src_remote_mem, dacs_dma_list_t* src_dma_list, uint32_t src_list_size,
            dacs_wid_t wid, DACS_ORDER_ATTR_T order_attr, DACS_BYTE_SWAP_T swap),
           (dst_addr, dst_dma_list, dst_list_size, src_remote_mem, src_dma_list, src_list_size, wid,
            order_attr, swap))
/* Messages. */
HS_DACS_FN(DACS_ERR_T, dacs_send,
           (void* src_data, uint32_t size, de_id_t dst_de, dacs_process_id_t dst_pid,
            uint32_t stream, dacs_wid_t wid, DACS_BYTE_SWAP_T swap),
           (src_data, size, dst_de, dst_pid, stream, wid, swap))
HS_DACS_FN(DACS_ERR_T, dacs_recv,
           (void* dst_data, uint32_t size, de_id_t src_de, dacs_process_id_t src_pid,
            uint32_t stream, dacs_wid_t wid, DACS_BYTE_SWAP_T swap),
           (dst_data, size, src_de, src_pid, stream, wid, swap))
/* Wait identifiers. */
HS_DACS_FN(DACS_ERR_T, dacs_wid_reserve, (dacs_wid_t * wid), (wid))
HS_DACS_FN(DACS_ERR_T, dacs_wid_release, (dacs_wid_t * wid), (wid))
HS_DACS_FN(DACS_ERR_T, dacs_wait, (dacs_wid_t wid), (wid))
HS_DACS_FN(DACS_ERR_T, dacs_test, (dacs_wid_t wid), (wid))
/* Mailboxes. */
HS_DACS_FN(DACS_ERR_T, dacs_mailbox_write,
           (uint32_t * msg, de_id_t dst_de, dacs_process_id_t dst_pid), (msg, dst_de, dst_pid))
HS_DACS_FN(DACS_ERR_T, dacs_mailbox_read,
           (uint32_t * msg, de_id_t src_de, dacs_process_id_t src_pid), (msg, src_de, src_pid))
HS_DACS_FN(DACS_ERR_T, dacs_mailbox_test,
           (DACS_TEST_MAILBOX_T rw_flag, de_id_t de, dacs_process_id_t pid, int32_t* mbox_status),
           (rw_flag, de, pid, mbox_status))
/* Groups and the barrier. */
HS_DACS_FN(DACS_ERR_T, dacs_group_init, (dacs_group_t * group, uint32_t flags), (group, flags))
HS_DACS_FN(DACS_ERR_T, dacs_group_add_member,
           (de_id_t de, dacs_process_id_t pid, dacs_group_t group), (de, pid, group))
HS_DACS_FN(DACS_ERR_T, dacs_group_close, (dacs_group_t group), (group))
HS_DACS_FN(DACS_ERR_T, dacs_group_destroy, (dacs_group_t * group), (group))
HS_DACS_FN(DACS_ERR_T, dacs_group_accept, (de_id_t de, dacs_process_id_t pid, dacs_group_t* group),
           (de, pid, group))
HS_DACS_FN(DACS_ERR_T, dacs_group_leave, (dacs_group_t * group), (group))
HS_DACS_FN(DACS_ERR_T, dacs_barrier_wait, (dacs_group_t group), (group))
