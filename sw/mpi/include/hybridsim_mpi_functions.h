/* Every function of hybridsim's mpi.h, once: HS_MPI_FN(return type, name without MPI_,
 * (parameters), (arguments)) and HS_MPI_FN0(return type, name) for those without parameters.
 * mpi.h declares the PMPI_ twins from it, the program runtime defines the forwarders and the
 * simulator its function table, so the three cannot disagree. Not for programs to include. */
HS_MPI_FN(int, Init, (int* argc, char*** argv), (argc, argv))
HS_MPI_FN(int, Init_thread, (int* argc, char*** argv, int required, int* provided),
          (argc, argv, required, provided))
HS_MPI_FN(int, Initialized, (int* flag), (flag))
HS_MPI_FN0(int, Finalize)
HS_MPI_FN(int, Finalized, (int* flag), (flag))
HS_MPI_FN(int, Abort, (MPI_Comm comm, int errorcode), (comm, errorcode))
HS_MPI_FN0(double, Wtime)
HS_MPI_FN0(double, Wtick)
HS_MPI_FN(int, Get_processor_name, (char* name, int* resultlen), (name, resultlen))
HS_MPI_FN(int, Get_version, (int* version, int* subversion), (version, subversion))
HS_MPI_FN(int, Get_library_version, (char* version, int* resultlen), (version, resultlen))
HS_MPI_FN(int, Query_thread, (int* provided), (provided))
HS_MPI_FN(int, Is_thread_main, (int* flag), (flag))
HS_MPI_FN(int, Error_string, (int errorcode, char* string, int* resultlen),
          (errorcode, string, resultlen))
HS_MPI_FN(int, Error_class, (int errorcode, int* errorclass), (errorcode, errorclass))
HS_MPI_FN(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler), (comm, errhandler))
HS_MPI_FN(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler* errhandler), (comm, errhandler))
HS_MPI_FN(int, Comm_create_errhandler,
          (MPI_Comm_errhandler_function * function, MPI_Errhandler* errhandler),
          (function, errhandler))
HS_MPI_FN(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode), (comm, errorcode))
HS_MPI_FN(int, Errhandler_free, (MPI_Errhandler * errhandler), (errhandler))
HS_MPI_FN(int, Send,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
          (buf, count, datatype, dest, tag, comm))
HS_MPI_FN(int, Ssend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
          (buf, count, datatype, dest, tag, comm))
HS_MPI_FN(int, Rsend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
          (buf, count, datatype, dest, tag, comm))
HS_MPI_FN(int, Bsend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
          (buf, count, datatype, dest, tag, comm))
HS_MPI_FN(int, Recv,
          (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
           MPI_Status* status),
          (buf, count, datatype, source, tag, comm, status))
HS_MPI_FN(int, Isend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request* request),
          (buf, count, datatype, dest, tag, comm, request))
HS_MPI_FN(int, Issend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request* request),
          (buf, count, datatype, dest, tag, comm, request))
HS_MPI_FN(int, Irsend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request* request),
          (buf, count, datatype, dest, tag, comm, request))
HS_MPI_FN(int, Ibsend,
          (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request* request),
          (buf, count, datatype, dest, tag, comm, request))
HS_MPI_FN(int, Irecv,
          (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
           MPI_Request* request),
          (buf, count, datatype, source, tag, comm, request))
HS_MPI_FN(int, Sendrecv,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
           void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
           MPI_Comm comm, MPI_Status* status),
          (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
           recvtag, comm, status))
HS_MPI_FN(int, Sendrecv_replace,
          (void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
           int recvtag, MPI_Comm comm, MPI_Status* status),
          (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))
HS_MPI_FN(int, Wait, (MPI_Request * request, MPI_Status* status), (request, status))
HS_MPI_FN(int, Test, (MPI_Request * request, int* flag, MPI_Status* status),
          (request, flag, status))
HS_MPI_FN(int, Waitall, (int count, MPI_Request requests[], MPI_Status* statuses),
          (count, requests, statuses))
HS_MPI_FN(int, Testall, (int count, MPI_Request requests[], int* flag, MPI_Status* statuses),
          (count, requests, flag, statuses))
HS_MPI_FN(int, Waitany, (int count, MPI_Request requests[], int* index, MPI_Status* status),
          (count, requests, index, status))
HS_MPI_FN(int, Testany,
          (int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status),
          (count, requests, index, flag, status))
HS_MPI_FN(int, Waitsome,
          (int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status* statuses),
          (incount, requests, outcount, indices, statuses))
HS_MPI_FN(int, Testsome,
          (int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status* statuses),
          (incount, requests, outcount, indices, statuses))
HS_MPI_FN(int, Request_free, (MPI_Request * request), (request))
HS_MPI_FN(int, Request_get_status, (MPI_Request request, int* flag, MPI_Status* status),
          (request, flag, status))
HS_MPI_FN(int, Test_cancelled, (const MPI_Status* status, int* flag), (status, flag))
HS_MPI_FN(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status* status),
          (source, tag, comm, status))
HS_MPI_FN(int, Iprobe, (int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status),
          (source, tag, comm, flag, status))
HS_MPI_FN(int, Get_count, (const MPI_Status* status, MPI_Datatype datatype, int* count),
          (status, datatype, count))
HS_MPI_FN(int, Get_elements, (const MPI_Status* status, MPI_Datatype datatype, int* count),
          (status, datatype, count))
HS_MPI_FN(int, Buffer_attach, (void* buffer, int size), (buffer, size))
HS_MPI_FN(int, Buffer_detach, (void* buffer_addr, int* size), (buffer_addr, size))
HS_MPI_FN(int, Barrier, (MPI_Comm comm), (comm))
HS_MPI_FN(int, Bcast, (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm),
          (buffer, count, datatype, root, comm))
HS_MPI_FN(int, Reduce,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           int root, MPI_Comm comm),
          (sendbuf, recvbuf, count, datatype, op, root, comm))
HS_MPI_FN(int, Allreduce,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm),
          (sendbuf, recvbuf, count, datatype, op, comm))
HS_MPI_FN(int, Gather,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
HS_MPI_FN(int, Gatherv,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
           MPI_Comm comm),
          (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))
HS_MPI_FN(int, Scatter,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
HS_MPI_FN(int, Scatterv,
          (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
          (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))
HS_MPI_FN(int, Allgather,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
HS_MPI_FN(int, Allgatherv,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
          (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
HS_MPI_FN(int, Alltoall,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
HS_MPI_FN(int, Alltoallv,
          (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
           MPI_Comm comm),
          (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
HS_MPI_FN(int, Reduce_scatter,
          (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
           MPI_Op op, MPI_Comm comm),
          (sendbuf, recvbuf, recvcounts, datatype, op, comm))
HS_MPI_FN(int, Reduce_scatter_block,
          (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm),
          (sendbuf, recvbuf, recvcount, datatype, op, comm))
HS_MPI_FN(int, Scan,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm),
          (sendbuf, recvbuf, count, datatype, op, comm))
HS_MPI_FN(int, Exscan,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm),
          (sendbuf, recvbuf, count, datatype, op, comm))
HS_MPI_FN(int, Reduce_local,
          (const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype, MPI_Op op),
          (inbuf, inoutbuf, count, datatype, op))
HS_MPI_FN(int, Op_create, (MPI_User_function * function, int commute, MPI_Op* op),
          (function, commute, op))
HS_MPI_FN(int, Op_free, (MPI_Op * op), (op))
HS_MPI_FN(int, Op_commutative, (MPI_Op op, int* commute), (op, commute))
HS_MPI_FN(int, Ibarrier, (MPI_Comm comm, MPI_Request* request), (comm, request))
HS_MPI_FN(int, Ibcast,
          (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
           MPI_Request* request),
          (buffer, count, datatype, root, comm, request))
HS_MPI_FN(int, Ireduce,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           int root, MPI_Comm comm, MPI_Request* request),
          (sendbuf, recvbuf, count, datatype, op, root, comm, request))
HS_MPI_FN(int, Iallreduce,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, MPI_Request* request),
          (sendbuf, recvbuf, count, datatype, op, comm, request))
HS_MPI_FN(int, Igather,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
HS_MPI_FN(int, Igatherv,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
           MPI_Comm comm, MPI_Request* request),
          (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm,
           request))
HS_MPI_FN(int, Iscatter,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
HS_MPI_FN(int, Iscatterv,
          (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
           MPI_Request* request),
          (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
           request))
HS_MPI_FN(int, Iallgather,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
HS_MPI_FN(int, Iallgatherv,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
           const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
           MPI_Request* request),
          (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
HS_MPI_FN(int, Ialltoall,
          (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
HS_MPI_FN(int, Ialltoallv,
          (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
           MPI_Comm comm, MPI_Request* request),
          (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
           request))
HS_MPI_FN(int, Ireduce_scatter,
          (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
           MPI_Op op, MPI_Comm comm, MPI_Request* request),
          (sendbuf, recvbuf, recvcounts, datatype, op, comm, request))
HS_MPI_FN(int, Ireduce_scatter_block,
          (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, MPI_Request* request),
          (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
HS_MPI_FN(int, Iscan,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, MPI_Request* request),
          (sendbuf, recvbuf, count, datatype, op, comm, request))
HS_MPI_FN(int, Iexscan,
          (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, MPI_Request* request),
          (sendbuf, recvbuf, count, datatype, op, comm, request))
HS_MPI_FN(int, Comm_size, (MPI_Comm comm, int* size), (comm, size))
HS_MPI_FN(int, Comm_rank, (MPI_Comm comm, int* rank), (comm, rank))
HS_MPI_FN(int, Comm_dup, (MPI_Comm comm, MPI_Comm* newcomm), (comm, newcomm))
HS_MPI_FN(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm* newcomm),
          (comm, color, key, newcomm))
HS_MPI_FN(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm),
          (comm, group, newcomm))
HS_MPI_FN(int, Comm_free, (MPI_Comm * comm), (comm))
HS_MPI_FN(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int* result), (comm1, comm2, result))
HS_MPI_FN(int, Comm_group, (MPI_Comm comm, MPI_Group* group), (comm, group))
HS_MPI_FN(int, Comm_test_inter, (MPI_Comm comm, int* flag), (comm, flag))
HS_MPI_FN(int, Comm_set_name, (MPI_Comm comm, const char* name), (comm, name))
HS_MPI_FN(int, Comm_get_name, (MPI_Comm comm, char* name, int* resultlen), (comm, name, resultlen))
HS_MPI_FN(int, Comm_get_attr, (MPI_Comm comm, int keyval, void* attribute_val, int* flag),
          (comm, keyval, attribute_val, flag))
HS_MPI_FN(int, Group_size, (MPI_Group group, int* size), (group, size))
HS_MPI_FN(int, Group_rank, (MPI_Group group, int* rank), (group, rank))
HS_MPI_FN(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group* newgroup),
          (group, n, ranks, newgroup))
HS_MPI_FN(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group* newgroup),
          (group, n, ranks, newgroup))
HS_MPI_FN(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup),
          (group, n, ranges, newgroup))
HS_MPI_FN(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup),
          (group, n, ranges, newgroup))
HS_MPI_FN(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group* newgroup),
          (group1, group2, newgroup))
HS_MPI_FN(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group* newgroup),
          (group1, group2, newgroup))
HS_MPI_FN(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group* newgroup),
          (group1, group2, newgroup))
HS_MPI_FN(int, Group_translate_ranks,
          (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]),
          (group1, n, ranks1, group2, ranks2))
HS_MPI_FN(int, Group_compare, (MPI_Group group1, MPI_Group group2, int* result),
          (group1, group2, result))
HS_MPI_FN(int, Group_free, (MPI_Group * group), (group))
HS_MPI_FN(int, Dims_create, (int nnodes, int ndims, int dims[]), (nnodes, ndims, dims))
HS_MPI_FN(int, Cart_create,
          (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
           MPI_Comm* comm_cart),
          (comm_old, ndims, dims, periods, reorder, comm_cart))
HS_MPI_FN(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]),
          (comm, rank, maxdims, coords))
HS_MPI_FN(int, Cart_rank, (MPI_Comm comm, const int coords[], int* rank), (comm, coords, rank))
HS_MPI_FN(int, Cart_shift,
          (MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest),
          (comm, direction, disp, rank_source, rank_dest))
HS_MPI_FN(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm),
          (comm, remain_dims, newcomm))
HS_MPI_FN(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]),
          (comm, maxdims, dims, periods, coords))
HS_MPI_FN(int, Cartdim_get, (MPI_Comm comm, int* ndims), (comm, ndims))
HS_MPI_FN(int, Topo_test, (MPI_Comm comm, int* status), (comm, status))
HS_MPI_FN(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype* newtype),
          (count, oldtype, newtype))
HS_MPI_FN(int, Type_vector,
          (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype),
          (count, blocklength, stride, oldtype, newtype))
HS_MPI_FN(int, Type_create_hvector,
          (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
           MPI_Datatype* newtype),
          (count, blocklength, stride, oldtype, newtype))
HS_MPI_FN(int, Type_indexed,
          (int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
           MPI_Datatype* newtype),
          (count, blocklengths, displacements, oldtype, newtype))
HS_MPI_FN(int, Type_create_hindexed,
          (int count, const int blocklengths[], const MPI_Aint displacements[],
           MPI_Datatype oldtype, MPI_Datatype* newtype),
          (count, blocklengths, displacements, oldtype, newtype))
HS_MPI_FN(int, Type_create_indexed_block,
          (int count, int blocklength, const int displacements[], MPI_Datatype oldtype,
           MPI_Datatype* newtype),
          (count, blocklength, displacements, oldtype, newtype))
HS_MPI_FN(int, Type_create_hindexed_block,
          (int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype oldtype,
           MPI_Datatype* newtype),
          (count, blocklength, displacements, oldtype, newtype))
HS_MPI_FN(int, Type_create_struct,
          (int count, const int blocklengths[], const MPI_Aint displacements[],
           const MPI_Datatype types[], MPI_Datatype* newtype),
          (count, blocklengths, displacements, types, newtype))
HS_MPI_FN(int, Type_create_resized,
          (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype),
          (oldtype, lb, extent, newtype))
HS_MPI_FN(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype* newtype), (oldtype, newtype))
HS_MPI_FN(int, Type_commit, (MPI_Datatype * datatype), (datatype))
HS_MPI_FN(int, Type_free, (MPI_Datatype * datatype), (datatype))
HS_MPI_FN(int, Type_size, (MPI_Datatype datatype, int* size), (datatype, size))
HS_MPI_FN(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent),
          (datatype, lb, extent))
HS_MPI_FN(int, Type_get_true_extent,
          (MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent),
          (datatype, true_lb, true_extent))
HS_MPI_FN(int, Get_address, (const void* location, MPI_Aint* address), (location, address))
HS_MPI_FN(int, Pack,
          (const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
           int* position, MPI_Comm comm),
          (inbuf, incount, datatype, outbuf, outsize, position, comm))
HS_MPI_FN(int, Unpack,
          (const void* inbuf, int insize, int* position, void* outbuf, int outcount,
           MPI_Datatype datatype, MPI_Comm comm),
          (inbuf, insize, position, outbuf, outcount, datatype, comm))
HS_MPI_FN(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int* size),
          (incount, datatype, comm, size))
HS_MPI_FN(int, Address, (void* location, MPI_Aint* address), (location, address))
HS_MPI_FN(int, Type_extent, (MPI_Datatype datatype, MPI_Aint* extent), (datatype, extent))
HS_MPI_FN(int, Type_hvector,
          (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
           MPI_Datatype* newtype),
          (count, blocklength, stride, oldtype, newtype))
HS_MPI_FN(int, Type_hindexed,
          (int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype oldtype,
           MPI_Datatype* newtype),
          (count, blocklengths, displacements, oldtype, newtype))
HS_MPI_FN(int, Type_struct,
          (int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
           MPI_Datatype* newtype),
          (count, blocklengths, displacements, types, newtype))
